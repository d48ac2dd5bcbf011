// Roles' privileges (server/resources/roles.ts; issue 48: its queries in the queries room): a role's codes with the
// division each is held in, and the whole set replaced.
import type { Db } from '../db';
import { tenant } from '../tenant';

/** Role `roleId`'s privileges, by code, all divisions first. */
export async function privilegesOfRole(db: Db, roleId: number): Promise<{ code: string; division_id: number | null }[]> {
  const { rows } = await db.query<{ code: string; division_id: number | null }>(
    'select privilege code, division_id from role_privileges where role_id = $1 order by privilege, division_id nulls first',
    [roleId],
  );
  return rows;
}

/** Replaces role `roleId`'s privileges with `want` (a code each, in a division or all of them) and marks the role changed. */
export async function replaceRolePrivileges(db: Db, roleId: number, want: { code: string; divisionId: number | null }[]): Promise<void> {
  await db.query('delete from role_privileges where role_id = $1', [roleId]);
  if (want.length) {
    await db.query(
      `insert into role_privileges (role_id, privilege, division_id) select $1, x.code, x.division_id
              from unnest($2::text[], $3::int[]) as x(code, division_id)`,
      [roleId, want.map((p) => p.code), want.map((p) => p.divisionId)],
    );
  }
  await db.query('update roles set updated_at = now() where id = $1', [roleId]);
}

/** The ids of the client's roles (server/resources/operatorGroups.ts: a group's grant names one of them). */
export async function roleIdsOf(db: Db, clientId: number | null): Promise<number[]> {
  const params: unknown[] = [];
  return (await db.query<{ id: number }>(`select id from roles where ${tenant(params, clientId)}`, params)).rows.map((r) => r.id);
}
