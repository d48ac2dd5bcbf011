// Just-in-time operator accounts (issue 49): the provider's person is linked to one Gatehouse account by the provider
// and its subject (never by a username, so a provider can never take over an account it did not make); the groups
// the provider sends decide the account's roles, per client, at every sign-in. A person in no mapped group gets
// nothing: no account is made, and an account made before loses what the provider's groups gave it.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/db';
import { audit } from '../../audit/trail';
import { HttpError, fill } from '../../http/kit';
import { GROUPS_MAX, GROUP_NAME_MAX, type RoleMapping } from './config';

/** What the provider said about the person, once its token was checked. */
export interface ProviderPerson {
  subject: string;
  username: string | null;
  name: string | null;
  email: string | null;
  groups: unknown;
}

export interface ProviderRef {
  key: string;
  name: string;
  roleMap: RoleMapping[];
  clientScope: number | null;
}

export const NO_MAPPED_GROUP =
  'You are in none of the groups of your organisation that give access to Gatehouse, so no account was made for you. Ask your administrator to add you to one.';

/** The groups claim as a list of names, or a 400 naming what is wrong with it (before anything is written). */
export function groupsOf(claim: unknown): string[] {
  if (claim === undefined || claim === null) return [];
  const list = typeof claim === 'string' ? [claim] : claim;
  if (!Array.isArray(list))
    throw new HttpError(400, 'The identity provider sent a groups claim that is not a list', [{ field: 'groups', message: 'is not a list' }]);
  if (list.length > GROUPS_MAX)
    throw new HttpError(
      400,
      fill('iam.tooManyGroups', 'The identity provider sent {count} groups; at most {max} are read, so the sign-in was refused', {
        count: list.length,
        max: GROUPS_MAX,
      }),
      [{ field: 'groups', message: `has more than ${GROUPS_MAX} entries` }],
    );
  if (list.some((g) => typeof g !== 'string' || g.length > GROUP_NAME_MAX))
    throw new HttpError(
      400,
      fill('iam.groupNameTooLong', 'The identity provider sent a group that is not a name of at most {max} characters', { max: GROUP_NAME_MAX }),
      [{ field: 'groups', message: 'holds a value that is not a group name' }],
    );
  return list as string[];
}

interface Grant {
  clientId: number;
  roleId: number;
}

/** The roles the groups give, per client (clients by code, roles by code within the client); a provider of one client grants in it alone. */
async function grantsOf(db: Db, provider: ProviderRef, groups: string[]): Promise<Grant[]> {
  const held = new Set(groups);
  const wanted = provider.roleMap.filter((m) => held.has(m.group));
  const out = new Map<string, Grant>();
  for (const m of wanted) {
    const { rows } = await db.query<{ client_id: number; role_id: number }>(
      `select c.id as client_id, r.id as role_id from clients c join roles r on r.client_id = c.id and r.code = $2
        where c.code = $1 and c.active and ($3::int is null or c.id = $3::int)`,
      [m.clientCode, m.roleCode, provider.clientScope],
    );
    for (const r of rows) out.set(`${r.client_id}:${r.role_id}`, { clientId: Number(r.client_id), roleId: Number(r.role_id) });
  }
  return [...out.values()];
}

const USERNAME_MAX = 100;
/** A username for a new account: the provider's, else its e-mail's, else its subject; numbered when taken. */
async function freeUsername(db: Db, p: ProviderPerson): Promise<string> {
  const base =
    (p.username ?? p.email ?? `iam-${p.subject}`)
      .normalize('NFKC')
      .replace(/[^\p{L}\p{N}._@+-]/gu, '')
      .slice(0, USERNAME_MAX - 4) || 'iam-user';
  for (let n = 1; n < 1000; n++) {
    const name = n === 1 ? base : `${base}.${n}`;
    const { rows } = await db.query('select 1 from users where lower(username) = lower($1)', [name]);
    if (!rows.length) return name;
  }
  throw new HttpError(409, 'No free username could be made for this person');
}

const grantView = async (db: Db, userId: number, provider: string) =>
  (
    await db.query<{ client_id: number; role_code: string }>(
      'select client_id, role_code from user_grants where user_id = $1 and iam_provider = $2 order by client_id, role_code',
      [userId, provider],
    )
  ).rows.map((r) => ({ clientId: Number(r.client_id), role: r.role_code }));

/**
 * Makes or updates the person's account from what the provider said; returns its id. Refused (403, in words) when
 * the groups give nothing: a new person gets no account, a known one loses the provider's grants and its sessions.
 */
export async function signInPerson(db: Db, req: FastifyRequest, provider: ProviderRef, person: ProviderPerson): Promise<number> {
  const groups = groupsOf(person.groups);
  const grants = await grantsOf(db, provider, groups);
  const refusal = await db.transaction(async (tx) => {
    const linked = await tx.query<{ user_id: number }>('select user_id from iam_accounts where provider = $1 and subject = $2', [provider.key, person.subject]);
    let userId = linked.rows[0] ? Number(linked.rows[0].user_id) : null;
    if (!grants.length) {
      if (userId === null) return NO_MAPPED_GROUP;
      const before = await grantView(tx, userId, provider.key);
      await tx.query('delete from user_grants where user_id = $1 and iam_provider = $2', [userId, provider.key]);
      await tx.query("update sessions set ended_at = now(), ended_by = 'identity provider' where user_id = $1 and ended_at is null", [userId]);
      for (const clientId of new Set(before.map((g) => g.clientId)))
        await audit(tx, req, {
          clientId,
          actor: provider.name,
          action: 'update',
          entity: 'operator',
          entityId: userId,
          before: { grants: before },
          after: { grants: [] },
        });
      return NO_MAPPED_GROUP;
    }
    const clients = [...new Set(grants.map((g) => g.clientId))];
    if (userId === null) {
      const username = await freeUsername(tx, person);
      const { rows } = await tx.query<{ id: number }>(
        `insert into users (username, password_hash, name, email, multi_tenancy, home_client_id, selected_client_id)
         values ($1, '!iam', $2, $3, $4, $5, $6) returning id`,
        [username, (person.name ?? username).slice(0, 200), person.email, clients.length > 1, clients[0], clients.length === 1 ? clients[0] : null],
      );
      userId = Number(rows[0].id);
      await tx.query('insert into iam_accounts (provider, subject, user_id) values ($1, $2, $3)', [provider.key, person.subject, userId]);
      for (const clientId of clients)
        await audit(tx, req, {
          clientId,
          actor: provider.name,
          action: 'create',
          entity: 'operator',
          entityId: userId,
          before: null,
          after: { username, provider: provider.key },
        });
    } else {
      const disabled = await tx.query('select 1 from users where id = $1 and disabled', [userId]);
      if (disabled.rows.length) return 'This account is disabled in Gatehouse: ask your administrator.';
      await tx.query(
        `update users set name = coalesce($2, name), email = coalesce($3, email), multi_tenancy = multi_tenancy or $4,
            selected_client_id = case when $5::int is not null then $5::int
              when selected_client_id = any($6::int[]) then selected_client_id else null end
          where id = $1`,
        [userId, person.name?.slice(0, 200) ?? null, person.email, clients.length > 1, clients.length === 1 ? clients[0] : null, clients],
      );
      await tx.query('update iam_accounts set signed_in_at = now() where provider = $1 and subject = $2', [provider.key, person.subject]);
    }
    const before = await grantView(tx, userId, provider.key);
    await tx.query('delete from user_grants where user_id = $1 and iam_provider = $2', [userId, provider.key]);
    for (const g of grants)
      await tx.query('insert into user_grants (user_id, role_id, client_id, division_id, iam_provider) values ($1, $2, $3, null, $4)', [
        userId,
        g.roleId,
        g.clientId,
        provider.key,
      ]);
    const after = await grantView(tx, userId, provider.key);
    if (JSON.stringify(before) !== JSON.stringify(after))
      for (const clientId of new Set([...before, ...after].map((g) => g.clientId)))
        await audit(tx, req, {
          clientId,
          actor: provider.name,
          action: 'update',
          entity: 'operator',
          entityId: userId,
          before: { grants: before },
          after: { grants: after },
        });
    return userId;
  });
  if (typeof refusal === 'string') throw new HttpError(403, refusal);
  return refusal;
}
