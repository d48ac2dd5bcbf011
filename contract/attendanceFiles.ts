// The attendance files (issue 29), one definition for every place that writes them: the Daily attendance and Attendance
// summaries screens' exports (server/http/attendance.ts) and the scheduled report jobs of the same reports
// (server/reports/sources.ts), which wrote the summary again with other headers and without its overtime (issue 48).
// Headers in plain words, In and Out as instants (each writer shows them in the client's zone), minutes as counted.
import type { AttendanceSummaryRow, DailyAttendanceRow } from './attendanceDaily';

export const DAILY_FILE_COLUMNS = [
  'Name',
  'Employee no.',
  'Team',
  'Shift start',
  'Shift end',
  'In',
  'Out',
  'Worked minutes',
  'Break minutes',
  'Overtime minutes',
  'Status',
  'Late minutes',
  'Leave',
] as const;
/** The columns that hold instants: written in the client's zone with its offset. */
export const DAILY_FILE_TIMES = ['In', 'Out'] as const;

export const dailyFileCells = (r: DailyAttendanceRow): unknown[] => [
  r.name,
  r.employeeNo,
  r.team,
  r.shiftStart,
  r.shiftEnd,
  r.firstIn,
  r.lastOut,
  r.workedMinutes,
  r.breakMinutes,
  r.overtimeMinutes,
  r.status,
  r.lateMinutes,
  r.leave,
];

export const SUMMARY_FILE_COLUMNS = [
  'Name',
  'Employee no.',
  'Team',
  'Scheduled days',
  'Present days',
  'Late days',
  'Absent days',
  'Leave days',
  'Worked minutes',
  'Late minutes',
  'Overtime minutes',
] as const;

export const summaryFileCells = (r: AttendanceSummaryRow): unknown[] => [
  r.name,
  r.employeeNo,
  r.team,
  r.scheduledDays,
  r.presentDays,
  r.lateDays,
  r.absentDays,
  r.leaveDays,
  r.workedMinutes,
  r.lateMinutes,
  r.overtimeMinutes,
];
