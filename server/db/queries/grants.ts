// Roles, their privileges, and the grants that give a user a role in a client (optionally on a division).
import type { Db } from '../db';
import { tenant, tenantOf } from '../tenant';

/**
 * The grants a user holds, directly or through operator groups (migration 041): a group's grants apply to every
 * member. Columns user_id, client_id, role_id, division_id.
 */
export const EFFECTIVE_GRANTS = `(select user_id, client_id, role_id, division_id from user_grants
  union select m.user_id, og.client_id, gg.role_id, gg.division_id
    from operator_group_members m join operator_groups og on og.id = m.group_id join operator_group_grants gg on gg.group_id = og.id)`;

/**
 * A condition: the user belongs to the client, as the view tenant_operators and MEMBERSHIPS (server/auth/accountScope.ts)
 * count it: its home client, a role granted there, or a member of one of the client's groups (with or without a role).
 */
export const memberOf = (user: string, client: string) => `(exists (select 1 from user_grants mg where mg.user_id = ${user} and mg.client_id = ${client})
    or exists (select 1 from users mu where mu.id = ${user} and mu.home_client_id = ${client})
    or exists (select 1 from operator_group_members mm join operator_groups mo on mo.id = mm.group_id where mm.user_id = ${user} and mo.client_id = ${client}))`;

export async function clientIdsOf(db: Db, userId: number): Promise<number[]> {
  const { rows } = await db.query<{ client_id: number }>(`select distinct client_id from ${EFFECTIVE_GRANTS} g where user_id = $1 order by client_id`, [
    userId,
  ]);
  return rows.map((r) => r.client_id);
}
export async function rolesOf(db: Db, userId: number, clientId: number | null): Promise<string[]> {
  const params: unknown[] = [userId];
  const own = tenantOf(params, clientId); // $2 (null: every client)
  const { rows } = await db.query<{ code: string }>(
    `select distinct r.code from ${EFFECTIVE_GRANTS} g join roles r on r.id = g.role_id
      where g.user_id = $1 and ($2::int is null or ${own('g')})`,
    params,
  );
  return rows.map((r) => r.code).sort();
}
/**
 * Each effective grant of the user in the client (direct, or through an operator group) with its role's privilege
 * codes, one item per division the role ticks them in (`privilegeDivisionId` null: wherever the grant reaches).
 */
export async function grantsWithPrivileges(
  db: Db,
  userId: number,
  clientId: number,
): Promise<{ role: string; divisionId: number | null; privilegeDivisionId: number | null; privileges: string[] }[]> {
  const params: unknown[] = [userId];
  const { rows } = await db.query<{ code: string; division_id: number | null; pdiv: number | null; privileges: string[] }>(
    `select r.code, g.division_id, rp.division_id as pdiv, array_agg(distinct rp.privilege order by rp.privilege) as privileges
       from ${EFFECTIVE_GRANTS} g join roles r on r.id = g.role_id join role_privileges rp on rp.role_id = g.role_id
      where g.user_id = $1 and ${tenant(params, clientId, 'g')}
      group by r.code, g.division_id, rp.division_id order by r.code, g.division_id nulls first, rp.division_id nulls first`,
    params,
  );
  return rows.map((r) => ({ role: r.code, divisionId: r.division_id, privilegeDivisionId: r.pdiv, privileges: r.privileges }));
}
/** Privilege codes of all the user's roles in any client that start with `prefix` (e.g. the clients screen's 9.2.). */
export async function privilegesAnywhere(db: Db, userId: number, prefix: string): Promise<string[]> {
  const { rows } = await db.query<{ privilege: string }>(
    `select distinct rp.privilege from ${EFFECTIVE_GRANTS} g join role_privileges rp on rp.role_id = g.role_id
      where g.user_id = $1 and rp.privilege like $2 order by rp.privilege`,
    [userId, `${prefix}%`],
  );
  return rows.map((r) => r.privilege);
}
export async function addGrant(db: Db, g: { userId: number; role: string; clientId: number; divisionId: number | null }): Promise<void> {
  await db.query('insert into user_grants (user_id, role_code, client_id, division_id) values ($1,$2,$3,$4)', [g.userId, g.role, g.clientId, g.divisionId]);
}
/** A template role: every client gets its own copy (when created, or when first granted it; migration 040). */
export async function insertRole(db: Db, code: string, name: string, privileges: Iterable<string>): Promise<void> {
  await db.query('insert into role_templates (code, name) values ($1, $2) on conflict (code) do nothing', [code, name]);
  for (const p of new Set(privileges))
    await db.query('insert into role_template_privileges (code, privilege) values ($1, $2) on conflict do nothing', [code, p]);
}
/** Platform-level privilege codes the user holds through platform grants (not inside any client). */
export async function platformPrivileges(db: Db, userId: number): Promise<string[]> {
  const { rows } = await db.query<{ privilege: string }>(
    `select distinct rp.privilege from platform_grants g join role_template_privileges rp on rp.code = g.role_code
      where g.user_id = $1 order by rp.privilege`,
    [userId],
  );
  return rows.map((r) => r.privilege);
}
