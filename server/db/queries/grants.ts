// Roles, their privileges, and the grants that give a user a role in a client (optionally on a division).
import type { Db } from '../db';

export async function clientIdsOf(db: Db, userId: number): Promise<number[]> {
  const { rows } = await db.query<{ client_id: number }>('select distinct client_id from user_grants where user_id = $1 order by client_id', [userId]);
  return rows.map((r) => r.client_id);
}
export async function rolesOf(db: Db, userId: number, clientId: number | null): Promise<string[]> {
  const { rows } = clientId === null
    ? await db.query<{ role_code: string }>('select distinct role_code from user_grants where user_id = $1', [userId])
    : await db.query<{ role_code: string }>('select distinct role_code from user_grants where user_id = $1 and client_id = $2', [userId, clientId]);
  return rows.map((r) => r.role_code).sort();
}
/** Each grant of the user in the client with its role's privilege codes. */
export async function grantsWithPrivileges(db: Db, userId: number, clientId: number): Promise<{ role: string; divisionId: number | null; privileges: string[] }[]> {
  const { rows } = await db.query<{ id: number; role_code: string; division_id: number | null; privileges: string[] | null }>(
    `select g.id, g.role_code, g.division_id, array_agg(rp.privilege order by rp.privilege) filter (where rp.privilege is not null) as privileges
       from user_grants g left join role_privileges rp on rp.role_code = g.role_code
      where g.user_id = $1 and g.client_id = $2 group by g.id, g.role_code, g.division_id order by g.id`, [userId, clientId]);
  return rows.map((r) => ({ role: r.role_code, divisionId: r.division_id, privileges: r.privileges ?? [] }));
}
/** Privilege codes of all the user's roles in any client that start with `prefix` (e.g. the clients screen's 9.2.). */
export async function privilegesAnywhere(db: Db, userId: number, prefix: string): Promise<string[]> {
  const { rows } = await db.query<{ privilege: string }>(
    `select distinct rp.privilege from user_grants g join role_privileges rp on rp.role_code = g.role_code
      where g.user_id = $1 and rp.privilege like $2 order by rp.privilege`, [userId, `${prefix}%`]);
  return rows.map((r) => r.privilege);
}
export async function addGrant(db: Db, g: { userId: number; role: string; clientId: number; divisionId: number | null }): Promise<void> {
  await db.query('insert into user_grants (user_id, role_code, client_id, division_id) values ($1,$2,$3,$4)', [g.userId, g.role, g.clientId, g.divisionId]);
}
export async function insertRole(db: Db, code: string, name: string, privileges: Iterable<string>): Promise<void> {
  await db.query('insert into roles (code, name) values ($1, $2) on conflict (code) do nothing', [code, name]);
  for (const p of new Set(privileges)) await db.query('insert into role_privileges (role_code, privilege) values ($1, $2) on conflict do nothing', [code, p]);
}
/** Platform-level privilege codes the user holds through platform grants (not inside any client). */
export async function platformPrivileges(db: Db, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ privilege: string }>(
    `select distinct rp.privilege from platform_grants g join role_privileges rp on rp.role_code = g.role_code
      where g.user_id = $1 order by rp.privilege`, [userId]);
  return rows.map((r) => r.privilege);
}
