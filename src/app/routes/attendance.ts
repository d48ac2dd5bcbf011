// The Attendance section's rows of the route table (src/app/routeTable.ts joins the sections in sidebar order):
// time and attendance, its children hidden from the sidebar.
// (§2: children under the parent prefix, hidden from the sidebar)
import { PRIV } from '../../../contract';
import { r, settings, attendanceChild, ATTENDANCE_MENU, type RouteDef } from './define';
import { RESOURCE_INDEX } from '../../../contract/resources/catalogueIndex';

export const ATTENDANCE_ROUTES: RouteDef[] = [
  // (and a member of staff's own leave, 3.8.3, issue 50: the section is where they find it)
  r('attendance', '/attendance', 'Time and attendance', [...ATTENDANCE_MENU, PRIV.leave.request], { icon: 'time', screen: 'attendance' }),
  // the timesheet's list is Amend timesheet [3.4]; a day opens at /attendance/amend-timesheet/edit/{id}
  ...attendanceChild(RESOURCE_INDEX.timesheet, 'Correct clock-ins and clock-outs of a timesheet.'),
  r('attendance', '/attendance/summaries', 'Attendance Summaries', [PRIV.attendanceSummaries], {
    icon: 'timeline-bar-chart',
    hidden: true,
    screen: 'attendanceSummaries',
    description: 'Days present, late, absent and on leave, and hours worked, per period.',
  }),
  r('attendance', '/attendance/build/timesheet', 'Build Timesheet', [PRIV.buildTimesheet], {
    icon: 'build',
    hidden: true,
    screen: 'buildTimesheet',
    description: 'Compute timesheets from clocking events and work schedules.',
  }),
  r('attendance', '/attendance/daily-attendance', 'Daily Attendance', [PRIV.dailyAttendance], {
    icon: 'calendar',
    hidden: true,
    screen: 'dailyAttendance',
    description: 'Who came in, late or not at all, day by day.',
  }),
  ...attendanceChild(RESOURCE_INDEX.leaveCategories, 'Kinds of leave and their allowances.'),
  // view/{id} [3.8.0]: a 3.8.0 holder sees the record; one who may add leave (3.8.1) corrects it there too
  ...attendanceChild(RESOURCE_INDEX.leave, 'Leave taken and requested by staff.'),
  settings(RESOURCE_INDEX.attendanceProperties, 'Which doors clock staff in and out, and how worked time is rounded.', { hidden: true }),
  ...attendanceChild(RESOURCE_INDEX.teams, 'Teams of staff sharing a work schedule.'),
  ...attendanceChild(RESOURCE_INDEX.workSchedules, 'Shifts and working days.'),
];
