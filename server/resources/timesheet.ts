// The timesheet on the server, beyond the declaration (contract/resources/attendance.ts timesheetResource): an
// amendment [3.4] says why, and the server works the day out again from the amended in and out times — status by the
// contract's rules with the day's shift and grace as built, time worked rounded as the attendance properties say, by
// the same dayOutcome daily attendance and a build use — and notes who amended it. A rebuild keeps amended days
// (server/db/queries/attendance.ts buildTimesheet).
import { attendanceClock, dayOutcome, minuteOfDaySql, WHOLE_DAY } from '../db/queries/attendance';
import type { ResourceHooks } from '../crud/hooks';

export const timesheetHooks: ResourceHooks = {
  select: { amendedBy: '(select u.name from users u where u.id = t.amended_by)' },
  async validate(_ctx, input, before) {
    if (before && (typeof input.amendReason !== 'string' || !input.amendReason.trim())) return [{ field: 'amendReason', message: 'is required: say why the day is changed' }];
    return [];
  },
  async beforeUpdate(ctx, input, before) {
    const firstIn = typeof input.firstIn === 'string' ? input.firstIn : null;
    const lastOut = typeof input.lastOut === 'string' ? input.lastOut : null;
    const d = (await ctx.tx.query<{ client_id: number; grace: number; leave: string | null; day: string; first_in_minutes: number | null }>(`
      select e.client_id as client_id, e.grace_minutes as grace, e.leave as leave, e.day::text as day,
        ${minuteOfDaySql('$2::timestamptz', 'c.timezone')} as first_in_minutes
      from timesheet_entries e join clients c on c.id = e.client_id where e.id = $1`, [before.id, firstIn])).rows[0];
    const clock = await attendanceClock(ctx.tx, Number(d.client_id));
    const { status, lateMinutes, workedMinutes } = dayOutcome({
      day: d.day, onLeave: d.leave !== null, shiftStart: (before.shiftStart as string | null) ?? null, graceMinutes: Number(d.grace),
      firstIn, lastOut, firstInMinutes: d.first_in_minutes === null ? null : Number(d.first_in_minutes),
    }, { ...clock, nowMinutes: WHOLE_DAY }); // an amended day is judged as a whole (its end is not waited for)
    return { status, late_minutes: lateMinutes, worked_minutes: workedMinutes, amended: true, amended_by: ctx.userId };
  },
};
