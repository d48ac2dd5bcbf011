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
