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
}

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
      (select e.at from events e where e.client_id = d.client_id and e.event_point_id = 'output-' || d.id and e.event_code = any($1::int[]) order by e.id desc limit 1)) last_changed_at
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
