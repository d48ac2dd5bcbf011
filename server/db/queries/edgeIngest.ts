// The SQL of Gatehouse Edge's events through the device interface (server/edge/ingest.ts; issue 48: a room's queries
// in the queries room). Every query names the client (server/db/tenant.ts) but those keyed by a controller or key the
// caller already holds as the client's.
import type { Db } from '../db';
import { tenant } from '../tenant';
import { inLockOrder } from './lockOrder';
import { SQLSTATE, pgError } from '../pgError';

/** A door's status as an edge event of a client says it, and when that event happened at the door. */
export interface DoorStatusMove {
  clientId: number;
  doorId: number;
  status: string;
  at: number;
}

/**
 * The doors' statuses as a transaction's edge events say them (server/monitor/pipeline.ts), in one statement: each
 * door's newest event (by when it happened at the door, not when it arrived: an edge's live event may be stored before
 * older ones of its backlog; of two at one moment the later one in `moves`), unless a newer one set it already. The
 * doors whose status moved to another (said live after the commit). The rows are locked first in the order of their
 * ids (docs/ARCHITECTURE.md, lock order), for no key update (a row written meanwhile that refers to a door is not held).
 * A move names a door of its client only: an edge's `door-N` of a door not its client's (another client's, or nobody's,
 * as the client is told: server/edge/othersNames.test.ts) moves, reads and holds nothing, and its time never hides
 * the door's own client's move of the same transaction (the newest move of each door was kept whoever's it was, and the
 * update by another client's found no row: the door's own status lost).
 */
export async function moveDoorStatuses(
  tx: Db,
  moves: readonly DoorStatusMove[],
): Promise<{ id: number; name: string; division_id: number | null; client_id: number; status: string }[]> {
  // each client's newest move of each door it names, by `client:door`
  const latestOf = new Map<string, DoorStatusMove>();
  for (const m of moves) {
    const k = `${m.clientId}:${m.doorId}`;
    if ((latestOf.get(k)?.at ?? -Infinity) <= m.at) latestOf.set(k, m);
  }
  if (!latestOf.size) return [];
  const named = [...latestOf.values()];
  // the doors that are their client's, locked (a door is one client's: at most one move of each is left)
  const { rows: locked } = await tx.query<{ id: number; client_id: number; status: string | null }>(
    `select id, client_id, status from doors where (id, client_id) in (select i, c from unnest($1::int[], $2::int[]) as v(i, c))
     order by id for no key update`,
    [named.map((m) => m.doorId), named.map((m) => m.clientId)],
  );
  if (!locked.length) return [];
  const latest = new Map(locked.map((r) => [Number(r.id), latestOf.get(`${Number(r.client_id)}:${Number(r.id)}`)!]));
  const ids = inLockOrder(latest.keys(), (doorId) => doorId);
  const before = new Map(locked.map((r) => [Number(r.id), r.status]));
  const { rows } = await tx.query<{ id: number; name: string; division_id: number | null; client_id: number; status: string }>(
    `update doors d set status = v.s, status_at = v.a from unnest($1::int[], $2::int[], $3::text[], $4::timestamptz[]) as v(i, c, s, a)
     where d.id = v.i and d.client_id = v.c and (d.status_at is null or d.status_at <= v.a)
     returning d.id, d.name, d.division_id, d.client_id, d.status`,
    [ids, ids.map((i) => latest.get(i)!.clientId), ids.map((i) => latest.get(i)!.status), ids.map((i) => new Date(latest.get(i)!.at).toISOString())],
  );
  return rows.filter((r) => before.get(Number(r.id)) !== r.status).map((r) => ({ ...r, id: Number(r.id), client_id: Number(r.client_id) }));
}

/** The numbers of controller `controllerId`'s events stored ahead of its last number (the live lane), oldest first. */
export async function edgeAheadSeqs(db: Db, controllerId: number): Promise<number[]> {
  const { rows } = await db.query<{ seq: string }>('select seq::text from edge_seq_ahead where controller_id = $1 order by seq', [controllerId]);
  return rows.map((r) => Number(r.seq));
}

/** The last journal number stored of controller `controllerId` (its row made when it has none yet); 0 for a controller
 *  deleted since its batch was admitted (its row's foreign key refused): the batch then goes nowhere (the pipeline's
 *  holdEdgeControllers), never a 500. */
export async function edgeLastSeq(db: Db, clientId: number, controllerId: number): Promise<number> {
  try {
    await db.query('insert into edge_controllers (controller_id, client_id) values ($1, $2) on conflict (controller_id) do nothing', [controllerId, clientId]);
  } catch (e) {
    if (pgError(e).code !== SQLSTATE.foreignKeyViolation) throw e;
    return 0;
  }
  const { rows } = await db.query<{ last_seq: string }>('select last_seq::text from edge_controllers where controller_id = $1', [controllerId]);
  return Number(rows[0]?.last_seq ?? 0);
}

/** The controller a service account (`userId`) is bound to, or null. */
export async function controllerOfKey(db: Db, userId: number): Promise<number | null> {
  const { rows } = await db.query<{ controller_id: number | null }>('select controller_id from service_accounts where user_id = $1', [userId]);
  return rows[0]?.controller_id == null ? null : Number(rows[0].controller_id);
}

/** Which of `ids` are the client's controllers. */
export async function ownControllerIds(db: Db, clientId: number, ids: number[]): Promise<number[]> {
  const params: unknown[] = [ids];
  const { rows } = await db.query<{ id: number }>(`select id from controllers where id = any($1::int[]) and ${tenant(params, clientId)}`, params);
  return rows.map((r) => Number(r.id));
}

/**
 * Which of the edge controllers `ids` whose numbers a pipeline transaction writes (edge_controllers, edge_seq_ahead:
 * rows that refer to the controller) are still there, held for key share until the commit, in id order, as the foreign
 * keys of those rows would hold them: its first statement, before any of their rows (docs/ARCHITECTURE.md, lock order;
 * a controller's delete locks it, then its rows there by cascade). A controller deleted after its batch was admitted,
 * while the batch waited in the pipeline's queue, is not among them (its events go nowhere); one deleted while this
 * transaction runs is deleted after its commit.
 */
export async function holdEdgeControllers(tx: Db, ids: number[]): Promise<Set<number>> {
  const { rows } = await tx.query<{ id: number }>('select id from controllers where id = any($1::int[]) order by id for key share', [ids]);
  return new Set(rows.map((r) => Number(r.id)));
}

/** Which of `ids` are the client's identities. */
export async function ownIdentityIds(db: Db, clientId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const params: unknown[] = [ids];
  const { rows } = await db.query<{ id: number }>(`select id from identities where id = any($1::int[]) and ${tenant(params, clientId)}`, params);
  return rows.map((r) => Number(r.id));
}

/** The client's doors of `ids` with the zones they lead into and out of. */
export async function doorZones(db: Db, clientId: number, ids: number[]): Promise<{ id: number; entry_zone_id: number | null; exit_zone_id: number | null }[]> {
  if (!ids.length) return [];
  const params: unknown[] = [ids];
  const { rows } = await db.query<{ id: number; entry_zone_id: number | null; exit_zone_id: number | null }>(
    `select id, entry_zone_id, exit_zone_id from doors where id = any($1::int[]) and ${tenant(params, clientId)}`,
    params,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Where a granted edge swipe let a person of a client go (null zone: out of every zone), and when. */
export interface PresenceMove {
  clientId: number;
  identityId: number;
  zoneId: number | null;
  at: number;
}

/**
 * Who is where as an edge let them through, in one statement (the pipeline's transaction of the events that carry the
 * moves: server/monitor/pipeline.ts): each identity's latest move (`moves` may name one several times: the latest by
 * time is kept here, as the database refuses to update one row twice in a statement), and a move older than the one
 * stored changes nothing.
 */
export async function movePresence(tx: Db, moves: readonly PresenceMove[]): Promise<void> {
  const latest = new Map<number, PresenceMove>();
  for (const m of moves) if ((latest.get(m.identityId)?.at ?? -Infinity) < m.at) latest.set(m.identityId, m);
  if (!latest.size) return;
  // in the order of the identities' ids: two batches at once (two controllers) lock the rows they share in one order; in
  // the order swiped they deadlocked on PostgreSQL (one of them refused, 500, in the outage test behind the relay)
  const named = inLockOrder(latest.keys(), (i) => i);
  // the people (still the client's) and zones still there, held as the insert's foreign keys would hold them, until the
  // commit: a person or zone deleted after its swipe was admitted, while it waited in the pipeline's queue, moves nobody
  // (its presence went with it) instead of failing the transaction and every batch of every controller in it
  const { rows: people } = await tx.query<{ id: number; client_id: number }>(
    'select id, client_id from identities where id = any($1::int[]) order by id for key share',
    [named],
  );
  const zoneIds = [...new Set(named.flatMap((i) => latest.get(i)!.zoneId ?? []))];
  const zones = zoneIds.length
    ? (await tx.query<{ id: number }>('select id from access_zones where id = any($1::int[]) order by id for key share', [zoneIds])).rows
    : [];
  const clientOf = new Map(people.map((r) => [Number(r.id), Number(r.client_id)]));
  const zoneThere = new Set(zones.map((r) => Number(r.id)));
  const ids = named.filter((i) => {
    const m = latest.get(i)!;
    return clientOf.get(i) === m.clientId && (m.zoneId === null || zoneThere.has(m.zoneId));
  });
  if (!ids.length) return;
  await tx.query(
    `insert into zone_presence (identity_id, client_id, zone_id, at)
     select i, c, z, a from unnest($1::int[], $2::int[], $3::int[], $4::timestamptz[]) as v(i, c, z, a)
     on conflict (identity_id) do update set zone_id = excluded.zone_id, at = excluded.at where zone_presence.at < excluded.at`,
    [ids, ids.map((i) => latest.get(i)!.clientId), ids.map((i) => latest.get(i)!.zoneId), ids.map((i) => new Date(latest.get(i)!.at).toISOString())],
  );
}

/** Controller `controllerId`'s last journal number moves on to `seq` (never back). */
export async function noteEdgeLastSeq(db: Db, controllerId: number, seq: number): Promise<void> {
  await db.query('update edge_controllers set last_seq = greatest(last_seq, $2) where controller_id = $1', [controllerId, seq]);
  await db.query('delete from edge_seq_ahead where controller_id = $1 and seq <= $2', [controllerId, seq]);
}
