// The edge controllers' live link (server/edge/hub.ts; issue 48: a room's SQL in the queries room): which controller a
// key is bound to, its status as its link comes and goes, what its edge reports (its OSDP readers, its buffered events
// and version). Every query of a client's row names the client; edge_controllers rows are keyed by the controller the
// caller already holds as the client's.
import type { Db } from '../db';
import { tenant, tenantOf } from '../tenant';

/** The controller service account `userId` (of `clientId`) is bound to, with its name and client; null: none. */
export async function controllerOfKeyUser(db: Db, clientId: number, userId: number): Promise<{ controllerId: number; name: string; clientId: number } | null> {
  const params: unknown[] = [userId];
  const inClient = tenantOf(params, clientId);
  const { rows } = await db.query<{ id: number; name: string; client_id: number }>(
    `select c.id, c.name, c.client_id from service_accounts sa join controllers c on c.id = sa.controller_id and ${inClient('c')}
      where sa.user_id = $1 and ${inClient('sa')}`,
    params,
  );
  return rows[0] ? { controllerId: Number(rows[0].id), name: rows[0].name, clientId: Number(rows[0].client_id) } : null;
}

/** The client's controller set online or offline when it is not already; its name when it changed. */
export async function setControllerStatus(db: Db, clientId: number, controllerId: number, status: 'online' | 'offline'): Promise<string | undefined> {
  const params: unknown[] = [controllerId, status];
  const { rows } = await db.query<{ name: string }>(
    `update controllers set status = $2, online_since = case when $2 = 'online' then now() else null end
      where id = $1 and ${tenant(params, clientId)} and status is distinct from $2 returning name`,
    params,
  );
  return rows[0]?.name;
}

/** Controller `controllerId`'s edge link went now. */
export async function noteEdgeDisconnected(db: Db, controllerId: number): Promise<void> {
  await db.query('update edge_controllers set disconnected_at = now() where controller_id = $1', [controllerId]);
}

/** Controller `controllerId`'s edge link came now (its row made when missing); the last journal number stored. */
export async function noteEdgeConnected(db: Db, clientId: number, controllerId: number): Promise<number> {
  await db.query(
    `insert into edge_controllers (controller_id, client_id, connected_at) values ($1, $2, now())
     on conflict (controller_id) do update set connected_at = now(), disconnected_at = null`,
    [controllerId, clientId],
  );
  const { rows } = await db.query<{ last_seq: string }>('select last_seq::text from edge_controllers where controller_id = $1', [controllerId]);
  return Number(rows[0]?.last_seq ?? 0);
}

/** What controller `controllerId`'s edge reported of its OSDP readers (issue 46), now. */
export async function noteOsdpReaders(db: Db, controllerId: number, readers: unknown): Promise<void> {
  await db.query('update edge_controllers set osdp_readers = $2::jsonb, osdp_readers_at = now() where controller_id = $1', [
    controllerId,
    JSON.stringify(readers),
  ]);
}

/** Controller `controllerId`'s edge's buffered events, and its version when it said it (a hello). */
export async function noteEdgePending(db: Db, controllerId: number, pending: number, version: string | null): Promise<void> {
  await db.query('update edge_controllers set pending = $2, edge_version = coalesce($3, edge_version) where controller_id = $1', [
    controllerId,
    pending,
    version,
  ]);
}
