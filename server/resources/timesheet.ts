// The timesheet on the server, beyond the declaration (contract/resources/attendance.ts timesheetResource): an
// amendment [3.4] says why, and the server works the day out again from the amended in and out times by the
// contract's payroll rules (attendanceFigures, the one function daily attendance and a build use) — status with the
// day's shift, grace and unpaid break as built, time worked and overtime rounded as the attendance properties say —
// and notes who amended it. A rebuild keeps amended days (server/db/queries/attendance.ts buildTimesheet).
import { attendanceFigures, WHOLE_DAY } from '../../contract';
import { attendanceClock } from '../db/queries/attendance';
import { amendedDay } from '../db/queries/timesheet';
import type { ResourceHooks } from '../crud/hooks';
import { fill } from '../http/kit';

export const timesheetHooks: ResourceHooks = {
  select: { amendedBy: '(select u.name from users u where u.id = t.amended_by)' },
  async validate(_ctx, input, before) {
    if (before && (typeof input.amendReason !== 'string' || !input.amendReason.trim()))
      return [{ field: 'amendReason', ...fill('timesheet.amendReasonRequired', 'is required: say why the day is changed', {}) }];
    return [];
  },
  async beforeUpdate(ctx, input, before) {
    const firstIn = typeof input.firstIn === 'string' ? input.firstIn : null;
    const lastOut = typeof input.lastOut === 'string' ? input.lastOut : null;
    const d = await amendedDay(ctx.tx, before.id, firstIn, lastOut);
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
