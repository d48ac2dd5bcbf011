// Alarm groups (server/resources/alarmGroups.ts; issue 48: its query in the queries room): armed or disarmed, by whom.
import type { Db } from '../db';

/** Alarm group `id` armed or disarmed now by `username`. */
export async function setAlarmGroupState(db: Db, id: number, state: 'armed' | 'disarmed', username: string): Promise<void> {
  await db.query('update alarm_groups set state = $2, state_changed_at = now(), state_changed_by = $3, updated_at = now() where id = $1', [
    id,
    state,
    username,
  ]);
}
