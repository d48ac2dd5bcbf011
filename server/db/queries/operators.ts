// Access administration beyond the catalogue (server/resources/accessAdmin.ts; issue 48: its queries in the queries
// room): the roles holding each privilege, the client's operators (listed, picked, created, disabled, unlocked) and an
// account's removal from one client (its groups, grants and sessions there; its home moved to another client).
import type { Db } from '../db';
import { tenant, tenantOf } from '../tenant';

/** Every privilege a role of the client holds, with the role and the division it holds it in (all divisions first). */
export async function rolePrivilegeHolders(db: Db, clientId: number): Promise<{ privilege: string; id: number; name: string; division_id: number | null }[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ privilege: string; id: number; name: string; division_id: number | null }>(
    `select rp.privilege, r.id, r.name, rp.division_id from role_privileges rp join roles r on r.id = rp.role_id
        where ${tenant(params, clientId, 'r')} order by r.name, rp.division_id nulls first`,
    params,
  );
  return rows;
}

/** Whether role `id` is one of the client's. */
export async function roleInClient(db: Db, clientId: number, id: number): Promise<boolean> {
  const params: unknown[] = [id];
  const { rows } = await db.query(`select 1 from roles where id = $1 and ${tenant(params, clientId)}`, params);
  return rows.length > 0;
}

/** Operator `id` when they work for the client. */
export async function clientOperator(
  db: Db,
  clientId: number,
  id: number,
): Promise<{ id: number; username: string; name: string; disabled: boolean } | undefined> {
  const params: unknown[] = [id];
  const { rows } = await db.query<{ id: number; username: string; name: string; disabled: boolean }>(
    `select id, username, name, disabled from tenant_operators where id = $1 and ${tenant(params, clientId)} limit 1`,
    params,
  );
  return rows[0];
}

/** Operator `id`'s id when they work for the client (an empty list otherwise). */
export async function clientOperatorIds(db: Db, clientId: number, id: number): Promise<{ id: number }[]> {
  const params: unknown[] = [id];
  const { rows } = await db.query<{ id: number }>(`select id from tenant_operators where id = $1 and ${tenant(params, clientId)} limit 1`, params);
  return rows;
}

/** The client's operators whose name or user name holds `q` (all when empty), by name, 500 at most, each with their groups here. */
export async function listClientOperators(db: Db, clientId: number, q: string): Promise<Record<string, unknown>[]> {
  const params: unknown[] = [];
  const own = tenantOf(params, clientId); // $1
  params.push(q); // $2
  const { rows } = await db.query(
    `select distinct on (o.name, o.id) o.id, o.client_id "clientId", o.username, o.name, o.email, o.disabled, o.created_at "createdAt",
              array(select g.name from operator_groups g join operator_group_members m on m.group_id = g.id where m.user_id = o.id and ${own('g')} order by g.name) groups
         from tenant_operators o where ${own('o')} and ($2 = '' or o.name ilike '%' || $2 || '%' or o.username ilike '%' || $2 || '%')
        order by o.name, o.id limit 500`,
    params,
  );
  return rows;
}

/** The client's operators as picker options: those of `ids` (any when empty) whose name or user name holds `q`, `limit` at most. */
export async function clientOperatorOptions(db: Db, clientId: number, ids: number[], q: string, limit: number): Promise<{ id: number; label: string }[]> {
  const params: unknown[] = [ids, q];
  const { rows } = await db.query<{ id: number; label: string }>(
    `select distinct o.id, o.name || ' (' || o.username || ')' as label from tenant_operators o
        where (cardinality($1::int[]) = 0 or o.id = any($1::int[]))
          and ($2 = '' or o.name ilike '%' || $2 || '%' or o.username ilike '%' || $2 || '%') and ${tenant(params, clientId, 'o')}
        order by label, o.id limit ${limit}`,
    params,
  );
  return rows;
}

export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  return (await db.query('select 1 from users where username = $1', [username])).rows.length > 0;
}

/** A new operator account whose home (and selected client) is `clientId`, in its time zone: its id. */
export async function insertOperator(
  db: Db,
  o: { username: string; passwordHash: string; name: string; email: string | null; clientId: number },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into users (username, password_hash, name, email, timezone, home_client_id, selected_client_id)
         select $1, $2, $3, $4, timezone, id, id from clients where id = $5 returning id`,
    [o.username, o.passwordHash, o.name, o.email, o.clientId],
  );
  return rows[0].id;
}

export async function setOperatorDisabled(db: Db, id: number, disabled: boolean): Promise<void> {
  await db.query('update users set disabled = $2 where id = $1', [id, disabled]);
}

/** Ends every open session of operator `id`, by `endedBy`. */
export async function endOperatorSessions(db: Db, id: number, endedBy: string): Promise<void> {
  await db.query(`update sessions set ended_at = now(), ended_by = $2 where user_id = $1 and ended_at is null`, [id, endedBy]);
}

/** Forgets operator `id`'s failed sign-ins and lock. */
export async function unlockOperator(db: Db, id: number): Promise<void> {
  await db.query('update users set failed_attempts = 0, locked_until = null where id = $1', [id]);
}

/** Takes operator `id` out of the client's operator groups: the groups' names. */
export async function leaveClientGroups(db: Db, clientId: number, id: number): Promise<{ name: string }[]> {
  const groupParams: unknown[] = [id];
  const groups = await db.query<{ name: string }>(
    `delete from operator_group_members m using operator_groups g
        where g.id = m.group_id and m.user_id = $1 and ${tenant(groupParams, clientId, 'g')} returning g.name`,
    groupParams,
  );
  return groups.rows;
}

/** Drops operator `id`'s grants in the client: how many there were. */
export async function dropClientGrants(db: Db, clientId: number, id: number): Promise<number> {
  const grantParams: unknown[] = [id];
  const grants = await db.query(`delete from user_grants where user_id = $1 and ${tenant(grantParams, clientId)} returning 1`, grantParams);
  return grants.rows.length;
}

/** Moves operator `id`'s home and selected client from `clientId` to `to` (the others stay). */
export async function moveOperatorHome(db: Db, id: number, clientId: number, to: number): Promise<void> {
  await db.query(
    `update users set home_client_id = case when home_client_id = $2 then $3::int else home_client_id end,
        selected_client_id = case when selected_client_id = $2 then $3::int else selected_client_id end where id = $1`,
    [id, clientId, to],
  );
}

/** Ends operator `id`'s open sessions in the client, by `endedBy`: their jtis. */
export async function endClientSessions(db: Db, clientId: number, id: number, endedBy: string): Promise<{ jti: string }[]> {
  const sessionParams: unknown[] = [id];
  const inClient = tenant(sessionParams, clientId); // $2
  sessionParams.push(endedBy); // $3
  const ended = await db.query<{ jti: string }>(
    `update sessions set ended_at = now(), ended_by = $3
        where user_id = $1 and ${inClient} and ended_at is null returning jti`,
    sessionParams,
  );
  return ended.rows;
}
