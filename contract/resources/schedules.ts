// Schedules [0.4.11.x] (issue 12): weekly time windows per day (an end before the start runs past midnight), and
// the windows a schedule keeps on each kind of special day (a kind it does not name closes it all day). Overlapping,
// inverted or empty windows are refused with the field named (server/resources/schedules.ts, scheduleViolations).
import { PRIV } from '../privileges';
import { children, choice, defineResource, text } from './define';

export const WEEKDAYS = [
  { value: '1', label: 'Monday' },
  { value: '2', label: 'Tuesday' },
  { value: '3', label: 'Wednesday' },
  { value: '4', label: 'Thursday' },
  { value: '5', label: 'Friday' },
  { value: '6', label: 'Saturday' },
  { value: '0', label: 'Sunday' },
] as const;
export const SPECIAL_DAY_KINDS = [
  { value: 'holiday', label: 'Holiday' },
  { value: 'half-day', label: 'Half day' },
  { value: 'closure', label: 'Closure' },
] as const;
/** 'HH:mm' from 00:00 to 23:59, and 24:00 for midnight at the end of a day. */
export const TIME_OF_DAY = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;
/** A time-of-day field of an owned row (a window's or a shift's start and end). */
export const timeOfDay = (label: string, column: string, placeholder: string) =>
  text({ label, column, max: 5, required: true, pattern: TIME_OF_DAY, help: 'HH:mm, 24-hour (24:00 is midnight)', placeholder });

export const schedulesResource = defineResource({
  name: 'schedules',
  table: 'schedules',
  api: '/event/manage/schedules',
  route: '/configure/schedule',
  section: 'configure',
  label: { one: 'Schedule', many: 'Schedules' },
  icon: 'time',
  privileges: PRIV.schedules,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another schedule' }),
    description: text({ max: 500, widget: 'textarea', search: true }),
    windows: children({
      table: 'schedule_windows',
      parent: 'schedule_id',
      itemLabel: 'Window',
      max: 100,
      fields: {
        day: choice(WEEKDAYS, { required: true, default: '1' }),
        start: timeOfDay('Start', 'start_time', '08:00'),
        end: timeOfDay('End', 'end_time', '18:00'),
      },
    }),
    specialWindows: children({
      label: 'On special days',
      table: 'schedule_special_windows',
      parent: 'schedule_id',
      itemLabel: 'Special-day window',
      max: 30,
      fields: {
        kind: choice(SPECIAL_DAY_KINDS, { required: true, default: 'holiday' }),
        start: timeOfDay('Start', 'start_time', '08:00'),
        end: timeOfDay('End', 'end_time', '18:00'),
      },
    }),
  },
  list: { title: ['name'], columns: ['description', 'windows', 'specialWindows', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Schedule', fields: ['name', 'description'] },
    { title: 'Weekly windows', description: 'When the schedule is open on each weekday. An end before the start runs past midnight.', fields: ['windows'] },
    {
      title: 'Special days',
      description: 'On a special date the schedule is open only in the windows of that kind of day; a kind with no window closes it all day.',
      fields: ['specialWindows'],
    },
  ],
  export: ['csv', 'ndjson'],
  screens: { whatIf: true },
});
