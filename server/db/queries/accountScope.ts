// The account scope's SQL (server/auth/accountScope.ts; issue 48: its queries in the queries room): whether an account
// holds the platform role, the clients each account belongs to, and a service account's user.
import type { Db } from '../db';
import { tenant } from '../tenant';

/**
 * The clients an account belongs to (any kind of user): its home client, a client it holds a role in, a client one
 * of whose groups it is a member of (the same memberships as the view tenant_operators).
 */
export const MEMBERSHIPS = `(select user_id, client_id from user_grants
  union select id, home_client_id from users where home_client_id is not null
  union select m.user_id, g.client_id from operator_group_members m join operator_groups g on g.id = m.group_id)`;

/** Whether account `userId` holds platform role `role`. */
export async function holdsPlatformRole(db: Db, userId: number, role: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from platform_grants where user_id = $1 and role_code = $2', [userId, role]);
  return rows.length > 0;
}

/** Accounts `userIds` with the clients each belongs to and whether it holds platform role `role`. */
export async function accountReachRows(db: Db, userIds: number[], role: string): Promise<{ id: number; clients: number[] | null; platform: boolean }[]> {
  const { rows } = await db.query<{ id: number; clients: number[] | null; platform: boolean }>(
    `select u.id, array(select distinct m.client_id from ${MEMBERSHIPS} m where m.user_id = u.id order by 1) clients,
            exists (select 1 from platform_grants p where p.user_id = u.id and p.role_code = $2) platform
       from users u where u.id = any($1::int[])`,
    [userIds, role],
  );
  return rows;
}

/** The user of the client's service account `id` (an empty list: not the client's). */
export async function serviceAccountUserIds(db: Db, clientId: number, id: number): Promise<number[]> {
  const params: unknown[] = [id];
  const { rows } = await db.query<{ user_id: number }>(`select user_id from service_accounts where id = $1 and ${tenant(params, clientId)}`, params);
  return rows.map((r) => Number(r.user_id));
}
