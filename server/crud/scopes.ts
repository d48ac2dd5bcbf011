// Named list scopes bound to the signed-in user (issue 50; contract ListScope, ResourceDeclaration.scopes): `mine`,
// the rows whose person is the operator's own identity, and `approvable`, the rows waiting for the user's decision.
// The server works each one out from the principal alone: a client's `?scope=` only picks one. A holder of only the
// resource's privileges.own code (3.8.3 Request own leave) is always held to `mine`: lists, exports, records and adds.
// How an operator account is linked to a member of staff: the identity of the client with the operator's e-mail
// (the same link that keeps anyone from deciding their own leave, server/resources/leave.ts).
import { CATALOGUE, columnOf, type Fields, type ListScope, type ResourceDeclaration } from '../../contract';
import type { Db } from '../db/db';
import { tenant } from '../db/tenant';
import { HttpError, divisionsFor, fill, type Principal } from '../http/kit';
import type { ResourceHooks } from './hooks';
import type { Bound, Scope } from './scope';

const IDENTITIES = 'identities';

/** The ids of the identities operator `user` (a placeholder) is, among the rows of the client named by `client`. */
export const ownIdentities = (user: string, client: string) =>
  `select i.id from ${IDENTITIES} i join users u on u.id = ${user} where i.client_id = ${client} and i.email is not null and lower(i.email) = lower(u.email)`;

/** The codes that keep their holder to their own rows: this resource's own code, and (for the identities a form
 *  picks from) the own code of each resource whose `mine` scope names a person of this resource. */
function ownCodes(r: ResourceDeclaration<any>): string[] {
  const out = r.privileges.own ? [r.privileges.own] : [];
  for (const o of CATALOGUE)
    if (o.privileges.own && o.scopes?.some((s) => s.kind === 'mine' && (o.fields as Fields)[s.person]?.target === r.name)) out.push(o.privileges.own);
  return out;
}

export function listScopes(r: ResourceDeclaration<any>, hooks: ResourceHooks) {
  const fields = r.fields as Fields;
  const col = (f: string) => `t.${columnOf(f, fields[f])}`;
  const target = (s: ListScope) => CATALOGUE.find((d) => d.name === fields[s.person]?.target);
  const own = ownCodes(r);
  const mineOf =
    (s: ListScope, userId: number): Bound =>
    (params) => {
      params.push(userId);
      return `${col(s.person)} in (${ownIdentities(`$${params.length}`, 't.client_id')})`;
    };
  const approvableOf =
    (s: ListScope, p: Principal): Bound =>
    (params) => {
      const u = `$${params.push(p.userId)}`;
      const parts = [`${col(s.person)} not in (${ownIdentities(u, 't.client_id')})`];
      if (s.when) parts.push(`${col(s.when.field)} = any($${params.push([...s.when.values])}::text[])`);
      // the approve code in the person's division (a person of a resource without divisions: held anywhere)
      const t = target(s);
      const d = t?.scope.division;
      const divisions = divisionsFor(p, s.privilege ? [s.privilege] : []);
      if (t && d) {
        parts.push(
          `exists (select 1 from ${t.table} x where x.id = ${col(s.person)} and x.${columnOf(d, (t.fields as Fields)[d])} = any($${params.push(divisions)}::int[]))`,
        );
      } else if (!divisions.length) parts.push('false');
      if (hooks.approves) parts.push(hooks.approves('t', u));
      return parts.join(' and ');
    };
  const boundOf = (s: ListScope, p: Principal): Bound => (s.kind === 'mine' ? mineOf(s, p.userId) : approvableOf(s, p));

  return {
    /** What a request with `codes` is held to: its own rows when, of `codes`, it holds only an own code. */
    held(p: Principal, codes: string[]): Pick<Scope, 'bound' | 'pick' | 'ownPerson'> {
      const pick = (name: string) => {
        const s = r.scopes?.find((x) => x.name === name);
        return s ? boundOf(s, p) : undefined;
      };
      const holds = new Set(p.entries.flatMap((e) => e.privilegeIds).filter((c) => codes.includes(c)));
      const onlyOwn = holds.size > 0 && [...holds].every((c) => own.includes(c));
      if (!onlyOwn) return { pick };
      const mine = r.scopes?.find((x) => x.kind === 'mine');
      if (mine) return { pick, bound: [mineOf(mine, p.userId)], ownPerson: { field: mine.person, userId: p.userId } };
      // a picker of the identities a form of an own code names: only the user's own
      return {
        pick,
        bound: [
          (params) => {
            params.push(p.userId);
            return `t.id in (${ownIdentities(`$${params.length}`, 't.client_id')})`;
          },
        ],
      };
    },
  };
}

/** A row added by a holder of only the own code names the user's own identity (403 on the field otherwise). */
export async function checkOwnPerson(dbx: Db, r: ResourceDeclaration<any>, scope: Scope, input: Record<string, unknown>): Promise<void> {
  if (!scope.ownPerson) return;
  const { field, userId } = scope.ownPerson;
  const params: unknown[] = [userId, input[field]];
  const inClient = tenant(params, scope.clientId, 'i');
  const { rows } = await dbx.query(
    `select 1 from ${IDENTITIES} i join users u on u.id = $1 where i.id = $2 and ${inClient} and i.email is not null and lower(i.email) = lower(u.email)`,
    params,
  );
  if (!rows.length)
    throw new HttpError(403, fill('record.onlyForYourself', 'You may add a {what} only for yourself', { what: r.label.one.toLowerCase() }), [
      { field, ...fill('record.onlyYou', 'may only be you', {}) },
    ]);
}
