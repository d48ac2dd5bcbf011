// The edge controllers' keys and the doors they answer for (server/edge/keys.ts, commands.ts; issue 48: a room's SQL
// in the queries room). A key is a service account bound to its controller (migration 132). Every query names the client.
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface Bound {
  id: number;
  user_id: number;
  key_id: string | null;
  key_revoked_at: unknown;
}

/** The service account bound to the client's controller `controllerId`, if any. */
export async function boundAccount(tx: Db, clientId: number, controllerId: number): Promise<Bound | null> {
  const params: unknown[] = [controllerId];
  const { rows } = await tx.query<Bound>(
    `select id, user_id, key_id, key_revoked_at from service_accounts where controller_id = $1 and ${tenant(params, clientId)}`,
    params,
  );
  return rows[0] ? { ...rows[0], id: Number(rows[0].id), user_id: Number(rows[0].user_id) } : null;
}

/** A new key in place of the old on service account `accountId` (active again, not revoked). */
export async function reissueKey(tx: Db, clientId: number, accountId: number, key: { keyId: string; hash: string; prefix: string }): Promise<void> {
  const issue: unknown[] = [accountId, key.keyId, key.hash, key.prefix];
  await tx.query(
    `update service_accounts set key_id = $2, key_hash = $3, key_prefix = $4, key_issued_at = now(), key_revoked_at = null, active = true,
       updated_at = now() where id = $1 and ${tenant(issue, clientId)}`,
    issue,
  );
}

/** The service account of controller `controllerId` (named `controllerName`) made with its user, role and key. */
export async function makeKeyAccount(
  tx: Db,
  clientId: number,
  controllerId: number,
  controllerName: string,
  role: string,
  key: { keyId: string; hash: string; prefix: string },
): Promise<void> {
  const accountName = `Edge controller ${controllerName.slice(0, 60)} (#${controllerId})`;
  const { rows } = await tx.query<{ id: number }>(
    `insert into users (username, password_hash, name, kind, timezone, home_client_id, selected_client_id)
     select $1, 'none$service-account', $2, 'service', c.timezone, c.id, c.id from clients c where c.id = $3 returning id`,
    [`edge-${key.keyId.slice(0, 6)}-${controllerId}`, accountName, clientId],
  );
  const params: unknown[] = [rows[0].id, accountName, role, key.keyId, key.hash, key.prefix, controllerId, clientId];
  await tx.query(
    `insert into service_accounts (user_id, name, description, role, active, key_id, key_hash, key_prefix, key_issued_at, controller_id, client_id)
     values ($1, $2, 'The key of a Gatehouse Edge controller (Hardware / Controllers)', $3, true, $4, $5, $6, now(), $7, $8)`,
    params,
  );
  await tx.query('insert into user_grants (user_id, role_code, client_id) values ($1, $2, $3)', [rows[0].id, role, clientId]);
}

/** Controller `controllerId`'s edge row, made when missing. */
export async function ensureEdgeController(tx: Db, clientId: number, controllerId: number): Promise<void> {
  await tx.query(`insert into edge_controllers (controller_id, client_id) values ($1, $2) on conflict (controller_id) do nothing`, [controllerId, clientId]);
}

/** Service account `accountId`'s key revoked now. */
export async function revokeKey(tx: Db, clientId: number, accountId: number): Promise<void> {
  const params: unknown[] = [accountId];
  await tx.query(`update service_accounts set key_revoked_at = now(), updated_at = now() where id = $1 and ${tenant(params, clientId)}`, params);
}

/** The edge controller (one with a live key) a door of the client is wired to, with the door's name; null: none. */
export async function edgeControllerOfDoor(
  db: Db,
  clientId: number,
  doorId: number,
): Promise<{ controllerId: number; name: string; controllerName: string } | null> {
  const params: unknown[] = [doorId];
  const { rows } = await db.query<{ controller_id: number; name: string; controller_name: string }>(
    `select h.controller_id, d.name, c.name as controller_name from doors d
       join (select controller_id, door_id from card_readers union all select controller_id, door_id from inputs
             union all select controller_id, door_id from outputs) h on h.door_id = d.id
       join service_accounts sa on sa.controller_id = h.controller_id and sa.key_revoked_at is null
       join controllers c on c.id = h.controller_id
      where d.id = $1 and ${tenant(params, clientId, 'd')} order by h.controller_id limit 1`,
    params,
  );
  return rows[0] ? { controllerId: Number(rows[0].controller_id), name: rows[0].name, controllerName: rows[0].controller_name } : null;
}
