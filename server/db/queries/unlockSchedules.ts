// Unlock schedules and first-person-in (issue 12): the doors with an unlock schedule as the clock decides them, the
// claim of a window's unlock or lock (one server, once), and the doors whose schedule was removed while unlocked.
import type { Db } from '../db';
import { tenant } from '../tenant';

export interface ScheduledDoor {
  id: number;
  client_id: number;
  name: string;
  schedule_id: number;
  first_person_in: boolean;
  unlocked: boolean;
  held: boolean;
}

const scheduledDoors = async (db: Db, where: string, params: unknown[]) =>
  (
    await db.query<ScheduledDoor>(
      `select d.id, d.client_id, d.name, d.unlock_schedule_id as schedule_id, d.first_person_in, d.schedule_unlocked_at is not null as unlocked,
          (d.mode = 'locked-down' or exists (select 1 from door_overrides o join door_override_doors x on x.override_id = o.id
                                              where x.door_id = d.id and o.starts_at <= now() and o.ends_at > now())) as held
     from doors d where d.unlock_schedule_id is not null and ${where} order by d.id`,
      params,
    )
  ).rows;

/** Every door of every client with an unlock schedule. */
export const allScheduledDoors = (db: Db) => scheduledDoors(db, 'true', []);

/** The door, when it is first-person-in and not unlocked yet in this window. */
export async function lockedFirstPersonInDoor(db: Db, clientId: number, doorId: number): Promise<ScheduledDoor | undefined> {
  const params: unknown[] = [doorId];
  const [d] = await scheduledDoors(db, `d.id = $1 and ${tenant(params, clientId, 'd')} and d.first_person_in and d.schedule_unlocked_at is null`, params);
  return d;
}

/** Claims the window's unlock (or its lock) of one door; false when another server or an earlier tick did it. */
export async function claimScheduleWindow(db: Db, doorId: number, unlock: boolean): Promise<boolean> {
  const { rows } = await db.query(
    unlock
      ? 'update doors set schedule_unlocked_at = now() where id = $1 and schedule_unlocked_at is null returning id'
      : 'update doors set schedule_unlocked_at = null where id = $1 and schedule_unlocked_at is not null returning id',
    [doorId],
  );
  return rows.length === 1;
}

/** Doors still unlocked by a schedule they no longer have (held: locked down, left alone). */
export async function doorsLeftUnlocked(db: Db): Promise<{ id: number; client_id: number; held: boolean }[]> {
  const { rows } = await db.query<{ id: number; client_id: number; held: boolean }>(
    `select d.id, d.client_id, d.mode = 'locked-down' as held from doors d where d.unlock_schedule_id is null and d.schedule_unlocked_at is not null`,
  );
  return rows;
}
