// The timesheet on the server, beyond the declaration (contract/resources/attendance.ts timesheetResource): an
// amendment [3.4] says why, and the server works the day out again from the amended in and out times — status by the
// contract's rules with the day's shift and grace as built, time worked rounded as the attendance properties say —
// and notes who amended it. A rebuild keeps amended days (server/db/queries/attendance.ts buildTimesheet).
import { attendanceStatus } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';

export const timesheetHooks: ResourceHooks = {
  select: { amendedBy: '(select u.name from users u where u.id = t.amended_by)' },
  async validate(_ctx, input, before) {
    if (before && (typeof input.amendReason !== 'string' || !input.amendReason.trim())) return [{ field: 'amendReason', message: 'is required: say why the day is changed' }];
    return [];
  },
  async beforeUpdate(ctx, input, before) {
    const { rows } = await ctx.tx.query<{ grace: number; leave: string | null; first_in_minutes: number | null; today: string; day: string; round: number | null }>(`
      select e.grace_minutes as grace, e.leave, e.day::text as day, (now() at time zone c.timezone)::date::text as today,
        (extract(hour from $2::timestamptz at time zone c.timezone) * 60 + extract(minute from $2::timestamptz at time zone c.timezone))::int first_in_minutes,
        (select round_minutes from attendance_properties p where p.client_id = c.id) round
      from timesheet_entries e join clients c on c.id = e.client_id where e.id = $1`, [before.id, input.firstIn ?? null]);
    const d = rows[0];
    const firstIn = typeof input.firstIn === 'string' ? Date.parse(input.firstIn) : null;
    const lastOut = typeof input.lastOut === 'string' ? Date.parse(input.lastOut) : null;
    const spent = firstIn !== null && lastOut !== null && lastOut > firstIn ? Math.floor((lastOut - firstIn) / 60_000) : null;
    const round = Number(d.round ?? 1);
    const { status, lateMinutes } = attendanceStatus({
      onLeave: d.leave !== null, shiftStart: (before.shiftStart as string | null) ?? null, graceMinutes: Number(d.grace),
      firstInMinutes: d.first_in_minutes === null ? null : Number(d.first_in_minutes), isToday: d.day === d.today, isFuture: d.day > d.today,
      nowMinutes: 24 * 60, // an amended day is judged as a whole (its end is not waited for)
    });
    return { status, late_minutes: lateMinutes, worked_minutes: spent === null ? null : spent - (spent % round), amended: true, amended_by: ctx.userId };
  },
};
