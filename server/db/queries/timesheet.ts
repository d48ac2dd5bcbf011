// The timesheet's amendment (server/resources/timesheet.ts; issue 48: its query in the queries room): what the day
// is worked out again from, with the amended in and out times as minutes of the entry's day in the client's zone.
import { WHOLE_DAY } from '../../../contract';
import type { Db } from '../db';
import { minuteOfDaySql } from './attendance';

/** A timestamp's wall-clock minute counted from the midnight of the entry's day in the client's zone (SQL; 1440 or
 *  more on the day after, as a night shift's out is). */
const minuteFromDaySql = (at: string) => `((${at} at time zone c.timezone)::date - e.day) * ${WHOLE_DAY} + ${minuteOfDaySql(at, 'c.timezone')}`;

export interface AmendedDay {
  client_id: number;
  grace: number;
  break_minutes: number;
  leave: string | null;
  day: string;
  in_minute: number | null;
  out_minute: number | null;
}

/** Timesheet entry `id`'s day, grace, break and leave, with `firstIn` and `lastOut` as minutes of its day. */
export async function amendedDay(db: Db, id: number, firstIn: string | null, lastOut: string | null): Promise<AmendedDay> {
  return (
    await db.query<AmendedDay>(
      `
      select e.client_id as client_id, e.grace_minutes as grace, e.break_minutes as break_minutes, e.leave as leave, e.day::text as day,
        ${minuteFromDaySql('$2::timestamptz')} as in_minute, ${minuteFromDaySql('$3::timestamptz')} as out_minute
      from timesheet_entries e join clients c on c.id = e.client_id where e.id = $1`,
      [id, firstIn, lastOut],
    )
  ).rows[0];
}
