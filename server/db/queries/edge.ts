// Gatehouse Edge's SQL (issue 47; issue 48: a room's queries in the queries room): the snapshot version built for a
// controller and when, what its edge reported it applied, and its doors whose anti-passback goes soft while it is
// offline. Every query names the client (server/db/tenant.ts).
import type { EdgeDegradedPolicy } from '../../../contract';
import type { Db } from '../db';
import { tenant, tenantOf } from '../tenant';

/**
 * The controller's snapshot version for a snapshot of `hash`: the one stored when the hash is the same (and when it was
 * built), else the next one, built now. Null: the controller is no edge controller (no row).
 */
export async function snapshotVersionFor(db: Db, clientId: number, controllerId: number, hash: string): Promise<{ version: number; builtAt: number } | null> {
  const params: unknown[] = [controllerId, hash];
  const { rows } = await db.query<{ snapshot_version: string; built_at: string | Date }>(
    `update edge_controllers set
        snapshot_version = case when snapshot_hash = $2 then snapshot_version else snapshot_version + 1 end,
        snapshot_built_at = case when snapshot_hash = $2 then coalesce(snapshot_built_at, now()) else now() end,
        snapshot_hash = $2
      where controller_id = $1 and ${tenant(params, clientId)} returning snapshot_version::text, snapshot_built_at as built_at`,
    params,
  );
  const r = rows[0];
  return r ? { version: Number(r.snapshot_version), builtAt: new Date(r.built_at).getTime() } : null;
}

/**
 * The edge holds snapshot `held`, newer than any this server numbered (its database restored from a backup): the next
 * snapshot is numbered after it (the hash forgotten, so the next build is a new version), else the edge would refuse
 * every snapshot as stale until the count passed it, and no change made on the console would reach its doors.
 * Answers whether it was behind.
 */
export async function raiseSnapshotVersion(db: Db, clientId: number, controllerId: number, held: number): Promise<boolean> {
  const params: unknown[] = [controllerId, held];
  const { rows } = await db.query(
    `update edge_controllers set snapshot_version = $2, snapshot_hash = null
      where controller_id = $1 and snapshot_version < $2 and ${tenant(params, clientId)} returning controller_id`,
    params,
  );
  return rows.length > 0;
}

/**
 * The edge applied snapshot `version` (built at `builtAt`, applied at `at`): kept when it is not older than the one it
 * reported before; when it applied it is kept from the first report of that version (a reconnect says it again).
 */
export async function recordApplied(db: Db, clientId: number, controllerId: number, version: number, builtAt: Date | null, at: Date): Promise<void> {
  const params: unknown[] = [controllerId, version, builtAt, at];
  await db.query(
    `update edge_controllers set
        applied_at = case when applied_version < $2 or applied_at is null then least($4::timestamptz, now()) else applied_at end,
        applied_built_at = case when applied_version <= $2 and $3::timestamptz is not null then least($3::timestamptz, now()) else applied_built_at end,
        applied_version = greatest(applied_version, $2)
      where controller_id = $1 and ${tenant(params, clientId)}`,
    params,
  );
}

/** The controller's doors (of its readers, inputs and outputs) in a zone of hard anti-passback, by name. */
export async function hardAntiPassbackDoors(db: Db, clientId: number, controllerId: number): Promise<string[]> {
  const params: unknown[] = [controllerId];
  const t = tenantOf(params, clientId);
  const { rows } = await db.query<{ name: string }>(
    `select d.name from doors d where ${t('d')} and d.id in (
        select door_id from card_readers where controller_id = $1 and ${t()} union select door_id from inputs where controller_id = $1 and ${t()}
        union select door_id from outputs where controller_id = $1 and ${t()})
      and exists (select 1 from access_zones z where z.id in (d.entry_zone_id, d.exit_zone_id) and ${t('z')} and z.anti_passback = 'hard')
      order by d.name limit 50`,
    params,
  );
  return rows.map((r) => r.name);
}

/** The event codes that raise an alarm for the client (its snapshot's `alarmCodes`): the default alarm types and its own. */
export async function alarmCodesOf(db: Db, clientId: number): Promise<number[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ event_code: number }>(
    `select distinct event_code from alarm_types where client_id is null or ${tenant(params, clientId)} order by event_code`,
    params,
  );
  return rows.map((r) => Number(r.event_code));
}

/** A strike or door input of the controller, with the board it is wired to (its bus address) and its point there. */
export interface DoorIoRow {
  id: number;
  name: string;
  door_id: number;
  /** the board's bus address and the point, both null when it is not wired to a board (simulated) */
  board_address: number | null;
  point: number | null;
  /** the board's name (null when not wired) */
  board_name: string | null;
}

/**
 * The door I/O the controller's edge drives and watches (its snapshot's doors): its lock strikes and its door contacts
 * and exit buttons at doors, in id order, each with where it is wired (issue 47: a board of this controller).
 */
export async function doorIoOf(db: Db, clientId: number, controllerId: number) {
  const params: unknown[] = [controllerId];
  const t = tenantOf(params, clientId);
  // a board of another controller cannot be saved (server/resources/boardPoints.ts); the join says it once more
  const board = (alias: string) => `left join interfaces b on b.id = ${alias}.board_id and b.controller_id = ${alias}.controller_id and ${t('b')}`;
  const { rows: strikes } = await db.query<DoorIoRow & { pulse_seconds: number | null; fail_safe: boolean }>(
    `select o.id, o.name, o.door_id, o.pulse_seconds, o.fail_safe, b.bus_address as board_address, b.name as board_name, case when b.id is null then null else o.point end as point
       from outputs o ${board('o')}
      where o.controller_id = $1 and o.kind = 'strike' and o.door_id is not null and ${t('o')} order by o.id`,
    params,
  );
  const { rows: inputs } = await db.query<DoorIoRow & { kind: 'door-contact' | 'exit-button'; normally_closed: boolean; supervised: boolean }>(
    `select i.id, i.name, i.door_id, i.kind, i.normally_closed, i.supervised, b.bus_address as board_address, b.name as board_name,
            case when b.id is null then null else i.point end as point
       from inputs i ${board('i')}
      where i.controller_id = $1 and i.kind in ('door-contact', 'exit-button') and i.door_id is not null and ${t('i')} order by i.id`,
    params,
  );
  return { strikes, inputs };
}

/** The client's controller `controllerId`'s card readers, the doors of its readers, inputs and outputs, and those doors'
 *  degraded policies and held-open times (the edge snapshot's wiring, server/edge/snapshot.ts). */
export async function controllerDoors(db: Db, clientId: number, controllerId: number) {
  const params: unknown[] = [controllerId];
  const mine = tenantOf(params, clientId);
  const { rows: readers } = await db.query<{ id: number; name: string; door_id: number; direction: 'entry' | 'exit'; address: number | null }>(
    `select id, name, door_id, direction, address from card_readers where controller_id = $1 and ${mine()} order by id`,
    params,
  );
  const { rows: others } = await db.query<{ door_id: number }>(
    `select door_id from inputs where controller_id = $1 and door_id is not null and ${mine()}
     union select door_id from outputs where controller_id = $1 and door_id is not null and ${mine()}`,
    params,
  );
  const doorIds = new Set([...readers.map((r) => Number(r.door_id)), ...others.map((r) => Number(r.door_id))]);
  const policyParams: unknown[] = [[...doorIds]];
  const { rows: policies } = await db.query<{ id: number; degraded_policy: EdgeDegradedPolicy; held_open_seconds: number }>(
    `select id, degraded_policy, held_open_seconds from doors where id = any($1::int[]) and ${tenantOf(policyParams, clientId)()}`,
    policyParams,
  );
  return { readers, doorIds, policies };
}

/** The client's own limit of days offline (Central properties, general); undefined when it has not set one. */
export async function edgeMaxOfflineDays(db: Db, clientId: number): Promise<number | undefined> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ days: number }>(
    `select edge_max_offline_days as days from central_properties where ${tenantOf(params, clientId)()}`,
    params,
  );
  return rows[0] ? Number(rows[0].days) : undefined;
}

/** Where identities `ids` of the client are (anti-passback): an edge snapshot's people's presence, not the tenant's. */
export async function presenceOfIdentities(db: Db, clientId: number, ids: readonly number[]): Promise<Map<number, { zoneId: number | null; at: number }>> {
  if (!ids.length) return new Map();
  const params: unknown[] = [ids];
  const { rows } = await db.query<{ identity_id: number; zone_id: number | null; at: Date | string }>(
    `select identity_id, zone_id, at from zone_presence where identity_id = any($1::int[]) and ${tenant(params, clientId)}`,
    params,
  );
  return new Map(rows.map((r) => [Number(r.identity_id), { zoneId: r.zone_id === null ? null : Number(r.zone_id), at: new Date(r.at).getTime() }]));
}
