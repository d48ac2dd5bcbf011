// Daily Attendance [3.2.0] (§2 Attendance "/daily-attendance"): for one day, each member of the client's teams with
// the shift their team's work schedule sets for that weekday, their first and last granted swipe of the day (any
// door, in the client's zone), and what that makes them. The spec names no columns or rules; these are the ones an
// HR office reads a day by:
// - on leave: a leave record covers the day (whatever the swipes);
// - day off: the schedule has no shift that weekday;
// - not yet: the day is today and the shift's start plus the schedule's grace has not passed; later, absent;
// - late: the first swipe is after the shift's start plus the grace (minutes late counted from the start);
// - present otherwise. Worked time is last swipe minus first, when there are two.
import { enums, integer, nullable, optional, string, type, array, type Infer } from 'superstruct';
import { API } from './api';
import { calendarDate, dateProblem, idInt } from './primitives';

export const DAILY_ATTENDANCE_API = API.dailyAttendance;

export const ATTENDANCE_STATUSES = [
  { value: 'present', label: 'Present' }, { value: 'late', label: 'Late' }, { value: 'absent', label: 'Absent' },
  { value: 'not-yet', label: 'Not in yet' }, { value: 'on-leave', label: 'On leave' }, { value: 'day-off', label: 'Day off' },
] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number]['value'];

export const DailyAttendanceQuery = type({ date: calendarDate(), teamId: optional(idInt()) });
export type DailyAttendanceQuery = Infer<typeof DailyAttendanceQuery>;

export const DailyAttendanceRow = type({
  identityId: integer(), name: string(), employeeNo: nullable(string()), teamId: integer(), team: string(),
  /** the shift of that weekday as HH:mm in the client's zone, or null (a day off) */
  shiftStart: nullable(string()), shiftEnd: nullable(string()),
  /** the work schedule's grace: minutes after the start still on time */
  graceMinutes: integer(),
  firstIn: nullable(string()), lastOut: nullable(string()),
  workedMinutes: nullable(integer()), lateMinutes: nullable(integer()),
  status: enums(ATTENDANCE_STATUSES.map((s) => s.value)),
  /** the leave category when on leave */
  leave: nullable(string()),
});
export type DailyAttendanceRow = Infer<typeof DailyAttendanceRow>;
export const DailyAttendance = type({ date: string(), zone: string(), rows: array(DailyAttendanceRow) });
export type DailyAttendance = Infer<typeof DailyAttendance>;

/** A member's status from their day (the rules above); `nowMinutes` is the time of day now when the day is today. */
export function attendanceStatus(d: {
  onLeave: boolean; shiftStart: string | null; graceMinutes: number; firstInMinutes: number | null; isToday: boolean; isFuture: boolean; nowMinutes: number;
}): { status: AttendanceStatus; lateMinutes: number | null } {
  if (d.onLeave) return { status: 'on-leave', lateMinutes: null };
  if (!d.shiftStart) return { status: 'day-off', lateMinutes: null };
  const start = minutesOf(d.shiftStart);
  if (d.firstInMinutes === null) {
    const pending = d.isFuture || (d.isToday && d.nowMinutes <= start + d.graceMinutes);
    return { status: pending ? 'not-yet' : 'absent', lateMinutes: null };
  }
  if (d.firstInMinutes > start + d.graceMinutes) return { status: 'late', lateMinutes: d.firstInMinutes - start };
  return { status: 'present', lateMinutes: null };
}
export const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Attendance Summaries [3.6.0] (§2 Attendance "/summaries"): each member's days of a period, counted day by day by the
 *  rules above (a day still ahead is not counted). At most ATTENDANCE_SUMMARY_MAX_DAYS days at once. */
export const ATTENDANCE_SUMMARY_API = API.attendanceSummaries;
export const ATTENDANCE_SUMMARY_MAX_DAYS = 62;
export const AttendanceSummaryQuery = type({ from: calendarDate(), to: calendarDate(), teamId: optional(idInt()) });
export type AttendanceSummaryQuery = Infer<typeof AttendanceSummaryQuery>;

/** What is wrong with a period of days (the summaries, Build Timesheet), or null when nothing is: a day that is no
 *  calendar date, the last day before the first, or more than ATTENDANCE_SUMMARY_MAX_DAYS days. The server answers
 *  `field` and `message` as the violation; a screen says it in its own words by `kind`. */
export interface PeriodProblem { kind: 'not-a-date' | 'backwards' | 'too-long'; field: 'from' | 'to'; message: string }
export function periodProblem(from: unknown, to: unknown): PeriodProblem | null {
  const notFrom = dateProblem(from);
  if (notFrom) return { kind: 'not-a-date', field: 'from', message: notFrom };
  const notTo = dateProblem(to);
  if (notTo) return { kind: 'not-a-date', field: 'to', message: notTo };
  const span = (Date.parse(to as string) - Date.parse(from as string)) / 86_400_000;
  if (span < 0) return { kind: 'backwards', field: 'to', message: 'must not be before the first day' };
  if (span >= ATTENDANCE_SUMMARY_MAX_DAYS) return { kind: 'too-long', field: 'to', message: `must be within ${ATTENDANCE_SUMMARY_MAX_DAYS} days of the first day` };
  return null;
}
export const AttendanceSummaryRow = type({
  identityId: integer(), name: string(), employeeNo: nullable(string()), teamId: integer(), team: string(),
  /** days with a shift, leave days left out */
  scheduledDays: integer(), presentDays: integer(), lateDays: integer(), absentDays: integer(), leaveDays: integer(),
  workedMinutes: integer(), lateMinutes: integer(),
});
export type AttendanceSummaryRow = Infer<typeof AttendanceSummaryRow>;
export const AttendanceSummary = type({ from: string(), to: string(), zone: string(), days: integer(), rows: array(AttendanceSummaryRow) });
export type AttendanceSummary = Infer<typeof AttendanceSummary>;

/** Build Timesheet [3.3]: the days of a period (up to today) written into the timesheet as daily attendance counts
 *  them; a day HR has amended [3.4] is kept as amended. */
export const TimesheetBuild = type({ from: calendarDate(), to: calendarDate(), teamId: optional(idInt()) });
export type TimesheetBuild = Infer<typeof TimesheetBuild>;
export const TimesheetBuildResult = type({ written: integer(), keptAmended: integer(), days: integer() });
export type TimesheetBuildResult = Infer<typeof TimesheetBuildResult>;
