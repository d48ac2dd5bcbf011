// Doors of one client, limited to the divisions the caller's matching grants cover (a door without a division is
// the whole client's). Another client's door, or one outside those divisions, simply is not there.
import { EVENT_CODES } from '../../../contract';
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface DoorListRow {
  id: number;
  name: string;
  status: string;
  mode: string;
  division_id: number | null;
  division_name: string | null;
  last_changed_at: Date | string | null;
  /** issue 47: its Gatehouse Edge controllers that are offline while it is in a zone of hard anti-passback (soft now) */
  soft_apb_controllers: string | null;
  soft_apb_since: Date | string | null;
}

/** Each controller's doors, those of its card readers, inputs and outputs: (controller_id, door_id). */
const CONTROLLER_DOORS = `(select controller_id, door_id from card_readers union select controller_id, door_id from inputs where door_id is not null
  union select controller_id, door_id from outputs where door_id is not null)`;
/**
 * Issue 47: the doors whose anti-passback is soft now (grant and log) though their zone's is hard: a door of a Gatehouse
 * Edge controller that is not online (offline since, or never connected) decides at the edge, which knows nobody's
 * presence elsewhere. Rows (client_id, door_id, zone_id, controller_name, since); the same rule as the Controllers
 * row's count (server/edge/keys.ts edgeSoftApb) said per door and per zone.
 */
export const SOFT_APB_DOORS = `(select d.client_id, d.id door_id, z.id zone_id, c.name controller_name, e.disconnected_at since
  from doors d join access_zones z on z.id in (d.entry_zone_id, d.exit_zone_id) and z.client_id = d.client_id and z.anti_passback = 'hard'
  join ${CONTROLLER_DOORS} w on w.door_id = d.id
  join edge_controllers e on e.controller_id = w.controller_id and (e.connected_at is null or e.disconnected_at is not null)
  join controllers c on c.id = w.controller_id and c.client_id = d.client_id)`;

/** Door-state events: forced/held/closed on the door's point, operators' commands and relocks on its strike output. */
const STATE_CODES = [
  EVENT_CODES.doorClosed,
  EVENT_CODES.doorForcedOpen,
  EVENT_CODES.doorHeldOpen,
  EVENT_CODES.doorLocked,
  EVENT_CODES.doorUnlocked,
  EVENT_CODES.doorMomentaryUnlock,
];

export async function listDoors(db: Db, clientId: number, divisions: number[]): Promise<DoorListRow[]> {
  // last change: the door's latest state event on either point, each an index walk back to the first hit
  const params: unknown[] = [STATE_CODES, divisions];
  const { rows } = await db.query<DoorListRow>(
    `select d.id, d.name, d.status, d.mode, d.division_id, v.name division_name, greatest(
      (select e.at from events e where e.client_id = d.client_id and e.event_point_id = 'door-' || d.id and e.event_code = any($1::int[]) order by e.id desc limit 1),
      (select e.at from events e where e.client_id = d.client_id and e.event_point_id = 'output-' || d.id and e.event_code = any($1::int[]) order by e.id desc limit 1)) last_changed_at,
      (select string_agg(distinct s.controller_name, ', ') from ${SOFT_APB_DOORS} s where s.door_id = d.id and s.client_id = d.client_id) soft_apb_controllers,
      (select min(s.since) from ${SOFT_APB_DOORS} s where s.door_id = d.id and s.client_id = d.client_id) soft_apb_since
    from doors d left join divisions v on v.id = d.division_id and v.client_id = d.client_id
    where ${tenant(params, clientId, 'd')} and (d.division_id is null or d.division_id = any($2::int[])) order by d.id`,
    params,
  );
  return rows;
}

/** Whether door `id` is one of `clientId`'s within `divisions`. */
export async function doorVisible(db: Db, clientId: number, divisions: number[], id: number): Promise<boolean> {
  const params: unknown[] = [id, divisions];
  const { rows } = await db.query(
    `select 1 from doors where id = $1 and ${tenant(params, clientId)} and (division_id is null or division_id = any($2::int[]))`,
    params,
  );
  return rows.length > 0;
}

// issue 48: the door routes' other queries (server/http/doors.ts): a door's mode and name, lockdown of divisions, QR codes.

/** Door `id`'s mode and name (none: no such door). */
export async function doorModeAndName(db: Db, id: number): Promise<{ mode: string; name: string } | undefined> {
  const {
    rows: [door],
  } = await db.query<{ mode: string; name: string }>('select mode, name from doors where id = $1', [id]);
  return door;
}

/**
 * Locks down the client's doors in `divisions` (their mode kept to come back to), or releases them: the doors changed.
 * The doors are locked first in the order of their ids (docs/ARCHITECTURE.md, lock order), for no key update: the event
 * pipeline's batch transaction holds the doors whose statuses it writes in that order (server/db/queries/edgeIngest.ts
 * moveDoorStatuses), and an update of the divisions' doors alone locked them in its plan's order (the table's), so a
 * lockdown beside a batch moving the same doors deadlocked on PostgreSQL (server/db/lockOrderDoors.test.ts).
 */
export async function setDivisionsLockdown(db: Db, clientId: number, divisions: number[], on: boolean): Promise<{ id: number }[]> {
  // the doors to change (not those already so), locked; the update then changes those only
  const lockParams: unknown[] = [divisions];
  const { rows: locked } = await db.query<{ id: number }>(
    `select id from doors where division_id = any($1::int[]) and ${tenant(lockParams, clientId)} and ${on ? "mode <> 'locked-down'" : "mode = 'locked-down'"}
        order by id for no key update`,
    lockParams,
  );
  if (!locked.length) return [];
  const params: unknown[] = [locked.map((r) => Number(r.id))];
  const { rows } = on
    ? await db.query<{ id: number }>(
        `update doors set mode_before_lockdown = mode, mode = 'locked-down'
            where id = any($1::int[]) and ${tenant(params, clientId)} and mode <> 'locked-down' returning id`,
        params,
      )
    : await db.query<{ id: number }>(
        `update doors set mode = coalesce(mode_before_lockdown, 'card'), mode_before_lockdown = null
            where id = any($1::int[]) and ${tenant(params, clientId)} and mode = 'locked-down' returning id`,
        params,
      );
  return rows;
}

/** The client's doors that take QR codes. */
export async function qrDoorIds(db: Db, clientId: number): Promise<{ id: number }[]> {
  const qrParams: unknown[] = [];
  const { rows } = await db.query<{ id: number }>(`select id from doors where ${tenant(qrParams, clientId)} and qr_secret is not null`, qrParams);
  return rows;
}

/** Door `id`'s QR secret (null: it takes no QR codes). */
export async function setDoorQrSecret(db: Db, id: number, secret: string | null): Promise<void> {
  await db.query('update doors set qr_secret = $2 where id = $1', [id, secret]);
}

export async function doorQrSecret(db: Db, id: number): Promise<{ qr_secret: string | null } | undefined> {
  const {
    rows: [door],
  } = await db.query<{ qr_secret: string | null }>('select qr_secret from doors where id = $1', [id]);
  return door;
}

/** The client's credential `number` (not a PIN) with its identity's name. */
export async function qrCredential(db: Db, clientId: number, number: string): Promise<{ number: string; name: string } | undefined> {
  const credParams: unknown[] = [number];
  const {
    rows: [cred],
  } = await db.query<{ number: string; name: string }>(
    `select c.number, i.first_name || ' ' || i.last_name as name from credentials c join identities i on i.id = c.identity_id
        where c.number = $1 and ${tenant(credParams, clientId, 'c')} and c.type <> 'pin'`,
    credParams,
  );
  return cred;
}
