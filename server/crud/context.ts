// A catalogue resource as every operation of the crud plugin sees it: its declaration, hooks and SQL, the scope a
// request reads and writes in (tenant, divisions, row families), what a write touches (issue 27), the context a hook
// is given, the audit view of a row, the change notice after a commit, and its rows read (rows.ts) and searched
// (where.ts). Built once per resource by plugin.ts; the operations (list, read, write, delete, export, actions) use it.
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type {} from '../auth/accountScope'; // FastifyContextConfig's touches and accounts
import { CATALOGUE, PLATFORM_PRIVILEGES, actionCodes, apiPaths, columnOf, type Fields, type ResourceDeclaration } from '../../contract';
import { clientIdsOf } from '../auth/access';
import type { Db } from '../db/db';
import { tenant } from '../db/tenant';
import { HttpError, fill, clientOf, divisionsFor, principal } from '../http/kit';
import type { Change, CrudContext, Row } from './hooks';
import type { ResourceHooks } from './hooks';
import { rowReader } from './rows';
import { ResourceSql, type Scope } from './sql';
import { listQuery } from './where';
import { listScopes } from './scopes';

type Publish = (clientId: number, destination: string, body: unknown) => void;
export interface CrudOptions {
  db: Db;
  publish?: Publish;
  hooks?: Record<string, ResourceHooks>;
  /** A list counts at most this many matching rows; beyond, its total is a lower bound (LIST_COUNT_CAP). */
  countCap?: number;
  /** A q search counts at most this many matches first (SEARCH_COUNT_CAP, never above countCap). */
  searchCountCap?: number;
  /** Rows a broad search walks in the asked order per row of its page before it reads its matches (SEARCH_WINDOW_PER_ROW). */
  searchWindowPerRow?: number;
}

/** Whoever may read a resource, or pick it in another resource's form, may read its options. */
export function optionCodesOf(r: ResourceDeclaration<any>): string[] {
  return [
    ...new Set([
      ...actionCodes(r, 'view'),
      ...(r.privileges.read ?? []),
      ...CATALOGUE.flatMap((o) =>
        Object.values(o.fields as Fields).some((f) => (f.kind === 'ref' || f.kind === 'refs') && f.target === r.name)
          ? [o.privileges.add, o.privileges.edit, o.privileges.own].filter((c): c is string => !!c)
          : [],
      ),
    ]),
  ];
}

/** Whoever may see a record that names rows of this resource (a team's leave approvers, to its viewers) may have
 *  those rows' names by their ids (`options?ids=`): the read-only form shows them. A search (`q`) stays optionCodesOf's. */
export function labelCodesOf(r: ResourceDeclaration<any>): string[] {
  return [
    ...new Set([
      ...optionCodesOf(r),
      ...CATALOGUE.flatMap((o) =>
        Object.values(o.fields as Fields).some((f) => (f.kind === 'ref' || f.kind === 'refs') && f.target === r.name) ? actionCodes(o, 'view') : [],
      ),
    ]),
  ];
}

export type CrudResource = ReturnType<typeof crudResource>;

export function crudResource(r: ResourceDeclaration<any>, opts: CrudOptions) {
  const { db } = opts;
  const hooks = opts.hooks?.[r.name] ?? {};
  /**
   * What a mutating route of this resource touches beyond the client's rows (issue 27, server/auth/accountScope.ts):
   * the whole installation when the resource is one set for it or the route's codes are platform privileges (creating
   * a client); an account when its rows carry one (hooks.accounts: a service account's users row); else the client.
   */
  const touching = (codes: readonly string[], record: boolean): Pick<FastifyContextConfig, 'touches' | 'accounts'> =>
    r.scope.tenant === 'platform' || codes.every((c) => PLATFORM_PRIVILEGES.includes(c))
      ? { touches: 'platform' }
      : record && hooks.accounts
        ? { touches: 'account', accounts: hooks.accounts }
        : { touches: 'client' };
  const sql = new ResourceSql(r, hooks);
  const scopes = listScopes(r, hooks);
  const one = r.label.one;
  const entity = one.toLowerCase();
  const fields = r.fields as Fields;

  async function scopeOf(dbx: Db, req: FastifyRequest, codes: string[]): Promise<Scope> {
    const p = principal(req);
    if (r.scope.tenant === 'self') return { clientId: null, tenants: await clientIdsOf(dbx, p.userId) };
    if (r.scope.tenant === 'platform') return { clientId: null };
    return {
      clientId: clientOf(req),
      divisions: r.scope.division ? divisionsFor(p, codes) : undefined,
      ...familyScope(p, codes),
      ...scopes.held(p, codes),
    };
  }
  /** privileges.families: the rows of the families whose code for this action (among `codes`) the user holds. */
  function familyScope(p: ReturnType<typeof principal>, codes: string[]): Pick<Scope, 'rowValues'> {
    const fam = r.privileges.families;
    if (!fam) return {};
    const held = new Set(p.entries.flatMap((e) => e.privilegeIds).filter((c) => codes.includes(c)));
    const values = fam.of.filter((f) => [f.view, f.add, f.edit].some((c) => c && held.has(c))).flatMap((f) => [...f.values]);
    return { rowValues: { column: columnOf(fam.field, fields[fam.field]), values } };
  }
  /** A row about to be written must be of a family the user may write (403 naming the field otherwise). */
  function familyCheck(scope: Scope, input: Record<string, unknown>) {
    const fam = r.privileges.families;
    if (!fam || !scope.rowValues) return;
    const v = input[fam.field];
    if (typeof v === 'string' && !scope.rowValues.values.includes(v)) {
      const family = fam.of.find((f) => f.values.includes(v));
      throw new HttpError(403, fill('record.notOfThisKind', 'You may not save a {what} of this kind', { what: entity }), [
        { field: fam.field, ...fill('privilege.neededForField', 'needs privilege {code}', { code: family?.add ?? family?.edit ?? family?.view ?? '?' }) },
      ]);
    }
  }
  const ctxOf = (req: FastifyRequest, tx: Db, clientId: number | null): CrudContext => {
    const p = principal(req);
    return { req, tx, userId: p.userId, username: p.username, clientId };
  };

  const auditView = (row: Row | null) => {
    if (!row) return null;
    const out: Record<string, unknown> = { ...row };
    for (const k of r.audit?.omit ?? []) if (out[k] !== null && out[k] !== undefined) out[k] = `(${k})`;
    return out;
  };
  const auditClient = (scope: Scope, id: number) => (r.scope.tenant === 'self' ? id : scope.clientId);
  function notify(clientId: number | null, change: Change, after: Row | null) {
    if (clientId === null) return;
    opts.publish?.(clientId, `/changes/${r.name}`, change);
    hooks.afterCommit?.(clientId, change, after);
  }

  /** A singleton's row of the tenant (made with its columns' defaults the first time). */
  async function singletonId(req: FastifyRequest): Promise<number> {
    if (r.scope.tenant === 'platform') {
      await db.query(`insert into ${r.table} (id) values (1) on conflict (id) do nothing`);
      return 1;
    }
    const clientId = clientOf(req);
    await db.query(`insert into ${r.table} (client_id) values ($1) on conflict (client_id) do nothing`, [clientId]);
    const params: unknown[] = [];
    return Number((await db.query<{ id: number }>(`select id from ${r.table} where ${tenant(params, clientId)}`, params)).rows[0].id);
  }

  return {
    r,
    opts,
    db,
    hooks,
    sql,
    fields,
    one,
    entity,
    paths: apiPaths(r),
    touching,
    scopeOf,
    familyCheck,
    ctxOf,
    auditView,
    auditClient,
    notify,
    singletonId,
    ...rowReader(r, sql),
    ...listQuery(r, sql, hooks),
  };
}
