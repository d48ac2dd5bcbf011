// Daily Attendance [3.2.0] (§2 Attendance "/daily-attendance"): for one day, each member of the client's teams with
// the shift their team's work schedule sets for that weekday, their first and last granted swipe of the day (any
// door, in the client's zone), and what that makes them. The spec names no columns or rules; these are the ones an
// HR office reads a day by:
// - on leave: a leave record covers the day (whatever the swipes);
// - day off: the schedule has no shift that weekday;
// - not yet: the day is today and the shift's start plus the schedule's grace has not passed; later, absent;
// - late: the first swipe is after the shift's start plus the grace (minutes late counted from the start);
// - present otherwise.
// Worked time, the unpaid break and overtime are the payroll rules of attendanceFigures below: daily attendance, the
// summaries, Build Timesheet and an amendment of the timesheet all count a day by that one function.
import { enums, integer, nullable, optional, string, type, array, type Infer } from './structs';
import { API } from './api';
import { beforeFirstDay, beyondFirstDay, calendarDate, dateProblem, idInt, problemSaid } from './primitives';
import type { Violation } from './violation';

export const DAILY_ATTENDANCE_API = API.dailyAttendance;

export const ATTENDANCE_STATUSES = [
  { value: 'present', label: 'Present' },
  { value: 'late', label: 'Late' },
  { value: 'absent', label: 'Absent' },
  { value: 'not-yet', label: 'Not in yet' },
  { value: 'on-leave', label: 'On leave' },
  { value: 'day-off', label: 'Day off' },
] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number]['value'];

/** The attendance screens' files: the same rows as CSV or XLSX through the server's one tabular writer (issue 29). */
export const ATTENDANCE_FORMATS = ['json', 'csv', 'xlsx'] as const;
export type AttendanceFormat = (typeof ATTENDANCE_FORMATS)[number];
export const DailyAttendanceQuery = type({ date: calendarDate(), teamId: optional(idInt()), format: optional(enums(ATTENDANCE_FORMATS)) });
export type DailyAttendanceQuery = Infer<typeof DailyAttendanceQuery>;

export const DailyAttendanceRow = type({
  identityId: integer(),
  name: string(),
  employeeNo: nullable(string()),
  teamId: integer(),
  team: string(),
  /** the shift of that weekday as HH:mm in the client's zone, or null (a day off) */
  shiftStart: nullable(string()),
  shiftEnd: nullable(string()),
  /** the work schedule's grace: minutes after the start still on time */
  graceMinutes: integer(),
  firstIn: nullable(string()),
  lastOut: nullable(string()),
  /** paid minutes of the day (attendanceFigures): the span from in to out less the unpaid break, rounded down */
  workedMinutes: nullable(integer()),
  lateMinutes: nullable(integer()),
  /** the work schedule's unpaid break (minutes), and what of it was taken off the span this day (0 up to it) */
  breakMinutes: integer(),
  breakTakenMinutes: integer(),
  /** the worked minutes of a day off, all of them overtime (0 on a working day) */
  overtimeMinutes: integer(),
  status: enums(ATTENDANCE_STATUSES.map((s) => s.value)),
  /** the leave category when on leave */
  leave: nullable(string()),
});
export type DailyAttendanceRow = Infer<typeof DailyAttendanceRow>;
export const DailyAttendance = type({ date: string(), zone: string(), rows: array(DailyAttendanceRow) });
export type DailyAttendance = Infer<typeof DailyAttendance>;

/** A member's status from their day (the rules above); `nowMinutes` is the time of day now when the day is today. */
export function attendanceStatus(d: {
  onLeave: boolean;
  shiftStart: string | null;
  graceMinutes: number;
  firstInMinutes: number | null;
  isToday: boolean;
  isFuture: boolean;
  nowMinutes: number;
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
export const AttendanceSummaryQuery = type({
  from: calendarDate(),
  to: calendarDate(),
  teamId: optional(idInt()),
  format: optional(enums(ATTENDANCE_FORMATS)),
});
export type AttendanceSummaryQuery = Infer<typeof AttendanceSummaryQuery>;

/** What is wrong with a period of days (the summaries, Build Timesheet), or null when nothing is: a day that is no
 *  calendar date, the last day before the first, or more than ATTENDANCE_SUMMARY_MAX_DAYS days. The server answers
 *  `field` and `message` as the violation; a screen says it in its own words by `kind`. */
export interface PeriodProblem {
  kind: 'not-a-date' | 'backwards' | 'too-long';
  field: 'from' | 'to';
  message: string;
  code?: string;
  values?: Violation['values'];
}
export function periodProblem(from: unknown, to: unknown): PeriodProblem | null {
  const notFrom = dateProblem(from);
  if (notFrom) return { kind: 'not-a-date', field: 'from', ...problemSaid(notFrom) };
  const notTo = dateProblem(to);
  if (notTo) return { kind: 'not-a-date', field: 'to', ...problemSaid(notTo) };
  const span = (Date.parse(to as string) - Date.parse(from as string)) / 86_400_000;
  if (span < 0) return { kind: 'backwards', field: 'to', ...beforeFirstDay() };
  if (span >= ATTENDANCE_SUMMARY_MAX_DAYS) return { kind: 'too-long', field: 'to', ...beyondFirstDay(ATTENDANCE_SUMMARY_MAX_DAYS) };
  return null;
}
export const AttendanceSummaryRow = type({
  identityId: integer(),
  name: string(),
  employeeNo: nullable(string()),
  teamId: integer(),
  team: string(),
  /** days with a shift, leave days left out */
  scheduledDays: integer(),
  presentDays: integer(),
  lateDays: integer(),
  absentDays: integer(),
  leaveDays: integer(),
  workedMinutes: integer(),
  lateMinutes: integer(),
  /** of workedMinutes, the minutes worked on days off */
  overtimeMinutes: integer(),
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

// ---------------------------------------------------------------------------------------------------------------------
// Payroll rules: what one member's day counts for. attendanceFigures is the one function daily attendance, the
// summaries (summariseDays), Build Timesheet and an amended timesheet day use; clockingDays hands it the day's in and
// out. As a payroll clerk reads them:
//
// 1. Which day a badge-in belongs to. A day runs midnight to midnight in the client's zone, except after a night shift
//    (a shift that ends at midnight or later: 16:00–24:00, or its end at or before its start, 22:00–06:00): its badge-ins of the next morning, up to halfway
//    from the shift's end to the next shift's start (the next day's shift, or the same shift again), belong to the day
//    the shift began. So 21:55 in and 06:10 out is one day's work, counted on the day it began. An out after midnight
//    of a day shift is the next day's (HR amends the day if it matters).
// 2. In and out. The first granted badge-in of the day is the in, the last the out; with one badge-in (or the out not
//    after the in) there is no out and no worked time.
// 3. The span is the whole minutes from in to out (seconds dropped once, after the break is taken off).
// 4. The unpaid break (the work schedule's breakMinutes) is taken off the span at most once a day, as the part of the
//    break window the span covers (never more than the break, never more than the span, so worked time is never
//    below zero):
//    - on a day with a shift, the window is the break's length in the middle of the shift (Office hours 09:00–17:00
//      with 60 minutes: 12:30–13:30). In 08:45, out 17:22 covers all of it: 8:37 less 1:00 is 7:37 worked. Who
//      leaves before 12:30 or arrives after 13:30 took no break; who leaves at 13:00 had half of it. A shift no longer
//      than its break has none;
//    - on a day without a shift (a day off) the window starts BREAK_WITHOUT_SHIFT_AFTER (5 hours) after the in: a
//      span up to 5 hours loses nothing, a longer one the minutes past 5 hours up to the break's length.
//    So leaving later never makes worked time less.
// 5. Rounding: what is left is rounded down to the attendance properties' minutes (1 = none), after the break.
// 6. Overtime: every worked minute of a day off (a badge-in on a day without a shift) is overtime, and the day says
//    so. On a working day, time past the shift is in Worked, not Overtime (overtime there needs approving, which the
//    product does not keep). A day on leave with badge-ins shows its worked time; it is not overtime.
// 7. A period's totals are the sums of its days as each day was rounded: nothing is rounded again.
// ---------------------------------------------------------------------------------------------------------------------

/** On a day without a shift, the unpaid break's window starts this long after the in (minutes). */
export const BREAK_WITHOUT_SHIFT_AFTER = 5 * 60;
/** A day of minutes: `nowMinutes` of WHOLE_DAY judges today as if it were over (an amended day). */
export const WHOLE_DAY = 24 * 60;

/** A badge-in: when (ISO) and its wall-clock minute counted from the midnight of the day it belongs to, in the
 *  client's zone (1440 or more the morning after, for a night shift). */
export interface BadgeIn {
  at: string;
  minute: number;
}

/** A shift as minutes from the day's midnight, the end past 1440 when it runs past midnight; null without a shift. */
export function shiftSpan(shiftStart: string | null, shiftEnd: string | null): { start: number; end: number } | null {
  if (!shiftStart || !shiftEnd) return null;
  const start = minutesOf(shiftStart);
  const end = minutesOf(shiftEnd);
  return { start, end: end <= start ? end + WHOLE_DAY : end };
}

/** The break window of a shift (rule 4): the break's length in the middle of the shift, as minutes from the day's
 *  midnight; null without a shift, without a break or when the shift is no longer than its break. */
export function breakWindow(shiftStart: string | null, shiftEnd: string | null, breakMinutes: number): { from: number; to: number } | null {
  const shift = shiftSpan(shiftStart, shiftEnd);
  if (!shift || !(breakMinutes > 0) || shift.end - shift.start <= breakMinutes) return null;
  const from = shift.start + Math.floor((shift.end - shift.start - breakMinutes) / 2);
  return { from, to: from + breakMinutes };
}

export interface AttendanceDay {
  /** the day ('YYYY-MM-DD') and, in the client's zone, today and the time of day now (WHOLE_DAY: judge as over) */
  day: string;
  today: string;
  nowMinutes: number;
  onLeave: boolean;
  shiftStart: string | null;
  shiftEnd: string | null;
  graceMinutes: number;
  breakMinutes: number;
  /** the attendance properties' rounding (anything but a positive whole number rounds nothing) */
  roundMinutes: number;
  firstIn: BadgeIn | null;
  lastOut: BadgeIn | null;
}
export interface AttendanceFigures {
  status: AttendanceStatus;
  lateMinutes: number | null;
  /** the span in whole minutes from in to out, null without an out after the in */
  spanMinutes: number | null;
  /** the unpaid break taken off the span (the part of the break window it covers: 0 up to the schedule's break) */
  breakTakenMinutes: number;
  workedMinutes: number | null;
  overtimeMinutes: number;
}

/** One member's day by the payroll rules above: status, minutes late, the span, the break taken off, worked time and
 *  overtime. */
export function attendanceFigures(d: AttendanceDay): AttendanceFigures {
  const { status, lateMinutes } = attendanceStatus({
    onLeave: d.onLeave,
    shiftStart: d.shiftStart,
    graceMinutes: d.graceMinutes,
    firstInMinutes: d.firstIn?.minute ?? null,
    isToday: d.day === d.today,
    isFuture: d.day > d.today,
    nowMinutes: d.nowMinutes,
  });
  const from = d.firstIn ? Date.parse(d.firstIn.at) : NaN;
  const to = d.lastOut ? Date.parse(d.lastOut.at) : NaN;
  if (!(to > from) || !d.firstIn || !d.lastOut)
    return { status, lateMinutes, spanMinutes: null, breakTakenMinutes: 0, workedMinutes: null, overtimeMinutes: 0 };
  // in milliseconds: the span as it was, the in and out on the wall clock with their seconds (zones differ from UTC
  // by whole minutes, so the seconds are the instant's)
  const M = 60_000;
  const wall = (c: BadgeIn) => c.minute * M + (((Date.parse(c.at) % M) + M) % M);
  const shiftWindow = breakWindow(d.shiftStart, d.shiftEnd, d.breakMinutes);
  const window = shiftSpan(d.shiftStart, d.shiftEnd)
    ? shiftWindow && { from: shiftWindow.from * M, to: shiftWindow.to * M }
    : d.breakMinutes > 0
      ? { from: wall(d.firstIn) + BREAK_WITHOUT_SHIFT_AFTER * M, to: wall(d.firstIn) + (BREAK_WITHOUT_SHIFT_AFTER + d.breakMinutes) * M }
      : null;
  const covered = window ? Math.min(wall(d.lastOut), window.to) - Math.max(wall(d.firstIn), window.from) : 0;
  const span = Math.floor((to - from) / M);
  const paid = Math.floor((to - from - Math.min(Math.max(0, covered), to - from)) / M);
  const breakTakenMinutes = span - paid;
  const round = Number.isInteger(d.roundMinutes) && d.roundMinutes > 0 ? d.roundMinutes : 1;
  const worked = paid - (paid % round);
  return { status, lateMinutes, spanMinutes: span, breakTakenMinutes, workedMinutes: worked, overtimeMinutes: status === 'day-off' ? worked : 0 };
}

/** Rule 1: the minute of a day before which its badge-ins belong to the day before (its night shift); 0 when the day
 *  before has no night shift. */
export function nightShiftRollover(
  before: { shiftStart: string | null; shiftEnd: string | null },
  day: { shiftStart: string | null; shiftEnd: string | null },
): number {
  const night = shiftSpan(before.shiftStart, before.shiftEnd);
  if (!night || night.end < WHOLE_DAY) return 0;
  const ends = night.end - WHOLE_DAY;
  const next = shiftSpan(day.shiftStart, day.shiftEnd);
  const nextStart = next && next.start > ends ? next.start : night.start;
  return ends + Math.floor(Math.max(0, nextStart - ends) / 2);
}

/** One member's consecutive days (each day's shift and its badge-ins in time order, `minute` of that calendar day):
 *  each day's in and out by rule 1 and 2. The first day's early badge-ins may belong to the day before it and the
 *  last day's shift may run into the day after: ask for a day either side of a period and drop them. */
export function clockingDays(
  days: { shiftStart: string | null; shiftEnd: string | null; swipes: BadgeIn[] }[],
): { firstIn: BadgeIn | null; lastOut: BadgeIn | null }[] {
  const rollover = days.map((d, i) => (i === 0 ? 0 : nightShiftRollover(days[i - 1], d)));
  return days.map((d, i) => {
    const mine = d.swipes.filter((s) => s.minute >= rollover[i]);
    const next = days[i + 1];
    if (next) for (const s of next.swipes) if (s.minute < rollover[i + 1]) mine.push({ at: s.at, minute: s.minute + WHOLE_DAY });
    return { firstIn: mine[0] ?? null, lastOut: mine.length > 1 ? mine[mine.length - 1] : null };
  });
}

/** Each member's totals over days of daily attendance (Attendance Summaries [3.6.0], a scheduled summary report):
 *  one row per team and member, the sums of the days as each day counted them (rule 7). */
export function summariseDays(days: Iterable<DailyAttendanceRow[]>): AttendanceSummaryRow[] {
  const totals = new Map<string, AttendanceSummaryRow>();
  for (const rows of days) {
    for (const r of rows) {
      const key = `${r.teamId}:${r.identityId}`;
      const t = totals.get(key) ?? {
        identityId: r.identityId,
        name: r.name,
        employeeNo: r.employeeNo,
        teamId: r.teamId,
        team: r.team,
        scheduledDays: 0,
        presentDays: 0,
        lateDays: 0,
        absentDays: 0,
        leaveDays: 0,
        workedMinutes: 0,
        lateMinutes: 0,
        overtimeMinutes: 0,
      };
      if (r.shiftStart && r.status !== 'on-leave') t.scheduledDays++;
      if (r.status === 'present' || r.status === 'late') t.presentDays++;
      if (r.status === 'late') {
        t.lateDays++;
        t.lateMinutes += r.lateMinutes ?? 0;
      }
      if (r.status === 'absent') t.absentDays++;
      if (r.status === 'on-leave') t.leaveDays++;
      t.workedMinutes += r.workedMinutes ?? 0;
      t.overtimeMinutes += r.overtimeMinutes;
      totals.set(key, t);
    }
  }
  return [...totals.values()];
}
