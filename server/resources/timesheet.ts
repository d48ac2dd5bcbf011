// The timesheet on the server, beyond the declaration (contract/resources/attendance.ts timesheetResource): an
// amendment [3.4] says why, and the server works the day out again from the amended in and out times by the
// contract's payroll rules (attendanceFigures, the one function daily attendance and a build use) — status with the
// day's shift, grace and unpaid break as built, time worked and overtime rounded as the attendance properties say —
// and notes who amended it. A rebuild keeps amended days (server/db/queries/attendance.ts buildTimesheet).
import { attendanceFigures, WHOLE_DAY } from '../../contract';
import { attendanceClock, minuteOfDaySql } from '../db/queries/attendance';
import type { ResourceHooks } from '../crud/hooks';

/** A timestamp's wall-clock minute counted from the midnight of the entry's day in the client's zone (SQL; 1440 or
 *  more on the day after, as a night shift's out is). */
const minuteFromDaySql = (at: string) => `((${at} at time zone c.timezone)::date - e.day) * ${WHOLE_DAY} + ${minuteOfDaySql(at, 'c.timezone')}`;

export const timesheetHooks: ResourceHooks = {
  select: { amendedBy: '(select u.name from users u where u.id = t.amended_by)' },
  async validate(_ctx, input, before) {
    if (before && (typeof input.amendReason !== 'string' || !input.amendReason.trim()))
      return [{ field: 'amendReason', message: 'is required: say why the day is changed' }];
    return [];
  },
  async beforeUpdate(ctx, input, before) {
    const firstIn = typeof input.firstIn === 'string' ? input.firstIn : null;
    const lastOut = typeof input.lastOut === 'string' ? input.lastOut : null;
    const d = (
      await ctx.tx.query<{
        client_id: number;
        grace: number;
        break_minutes: number;
        leave: string | null;
        day: string;
        in_minute: number | null;
        out_minute: number | null;
      }>(
        `
      select e.client_id as client_id, e.grace_minutes as grace, e.break_minutes as break_minutes, e.leave as leave, e.day::text as day,
        ${minuteFromDaySql('$2::timestamptz')} as in_minute, ${minuteFromDaySql('$3::timestamptz')} as out_minute
      from timesheet_entries e join clients c on c.id = e.client_id where e.id = $1`,
        [before.id, firstIn, lastOut],
      )
    ).rows[0];
    const clock = await attendanceClock(ctx.tx, Number(d.client_id));
    const f = attendanceFigures({
      day: d.day,
      today: clock.today,
      nowMinutes: WHOLE_DAY, // an amended day is judged as a whole (its end is not waited for)
      onLeave: d.leave !== null,
      shiftStart: (before.shiftStart as string | null) ?? null,
      shiftEnd: (before.shiftEnd as string | null) ?? null,
      graceMinutes: Number(d.grace),
      breakMinutes: Number(d.break_minutes),
      roundMinutes: clock.roundMinutes,
      firstIn: firstIn === null || d.in_minute === null ? null : { at: firstIn, minute: Number(d.in_minute) },
      lastOut: lastOut === null || d.out_minute === null ? null : { at: lastOut, minute: Number(d.out_minute) },
    });
    return {
      status: f.status,
      late_minutes: f.lateMinutes,
      worked_minutes: f.workedMinutes,
      overtime_minutes: f.overtimeMinutes,
      amended: true,
      amended_by: ctx.userId,
    };
  },
};
