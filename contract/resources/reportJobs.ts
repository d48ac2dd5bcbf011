// Scheduled report jobs (§2 Report: "scheduled report jobs list/add/edit/{id} [{ip}, 3.9.x]"): a report made on a
// schedule, in the client's zone, for the period just past, and kept for download on the job's page. Two families of
// privileges: security reports with 0.6.5.x, attendance reports with 3.9.x (privileges.families) — a holder of one
// family never sees the other's jobs. The server runs the due jobs each minute (server/resources/reportJobs.ts); no
// delete code: a job is switched off.
import { API } from '../api';
import { PRIV } from '../privileges';
import { choice, defineResource, number, switchField, text, timestamp } from './define';
import { WEEKDAYS } from './schedules';

/** The reports a job can make; `family` says whose codes it needs. */
export const REPORT_JOB_KINDS = [
  { value: 'events', label: 'Event report: the period\u2019s events', family: 'security' },
  { value: 'activity', label: 'Activity report: changes made in the period', family: 'security' },
  { value: 'identities', label: 'Identity report: everyone, as on the day it runs', family: 'security' },
  { value: 'daily-attendance', label: 'Daily attendance: each member\u2019s days in the period', family: 'attendance' },
  { value: 'attendance-summary', label: 'Attendance summaries: each member\u2019s totals for the period', family: 'attendance' },
] as const;
export type ReportJobKind = (typeof REPORT_JOB_KINDS)[number]['value'];
const kinds = (family: string) => REPORT_JOB_KINDS.filter((k) => k.family === family).map((k) => k.value);

export const REPORT_JOB_FREQUENCIES = [
  { value: 'daily', label: 'Daily: the day before' },
  { value: 'weekly', label: 'Weekly: the 7 days before' },
  { value: 'monthly', label: 'Monthly: the month before' },
] as const;
/** At most this many rows in one report; a larger one is cut there and says so. */
export const REPORT_JOB_MAX_ROWS = 100_000;

export const reportJobsResource = defineResource({
  name: 'reportJobs', table: 'report_jobs', api: API.reportJobs, route: '/report/scheduled-jobs', section: 'report',
  label: { one: 'Scheduled report job', many: 'Scheduled report jobs' }, icon: 'calendar',
  privileges: {
    view: PRIV.reportJobs.view, add: PRIV.reportJobs.add, edit: PRIV.reportJobs.edit,
    families: { field: 'report', of: [
      { values: kinds('security'), ...PRIV.reportJobs },
      { values: kinds('attendance'), ...PRIV.attendanceReportJobs },
    ] },
  },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another job', placeholder: 'Monday report' }),
    report: choice(REPORT_JOB_KINDS, { required: true, default: 'events', filter: true, sort: true }),
    frequency: choice(REPORT_JOB_FREQUENCIES, { required: true, default: 'daily', filter: true }),
    hour: number({ label: 'At (hour)', min: 0, max: 23, required: true, default: 6, help: 'From 0 to 23, in the client\u2019s time zone' }),
    weekday: choice(WEEKDAYS, { label: 'On (weekly)', required: true, default: '1', help: 'The day a weekly job runs', shownWhen: { field: 'frequency', values: ['weekly'] } }),
    monthDay: number({ label: 'On day of the month (monthly)', min: 1, max: 28, required: true, default: 1, help: 'From 1 to 28: the day a monthly job runs', shownWhen: { field: 'frequency', values: ['monthly'] } }),
    keepRuns: number({ label: 'Reports kept', min: 1, max: 50, required: true, default: 10, help: 'The oldest goes when a new one is made' }),
    enabled: switchField({ label: 'Runs on its schedule', default: true, help: 'Off: the job keeps its reports and makes no more until switched on' }),
    nextRunAt: timestamp({ label: 'Next run', sort: true }),
    lastRunAt: timestamp({ label: 'Last run', sort: true }),
    lastStatus: text({ label: 'Last result', max: 500, readOnly: true }),
    lastRunId: number({ label: 'Last report', readOnly: true, virtual: true }),
  },
  list: { title: ['name'], columns: ['report', 'frequency', 'nextRunAt', 'lastRunAt', 'lastStatus', 'enabled'], sort: ['name', 'asc'] },
  form: [
    { title: 'Report', description: 'What is made: each report covers the period just past, in the client\u2019s time zone.', fields: ['name', 'report'] },
    { title: 'Schedule', description: 'When it is made, and how many of its reports are kept for download.', fields: ['frequency', 'hour', 'weekday', 'monthDay', 'keepRuns', 'enabled'] },
  ],
  screens: {
    // a view holder (an auditor) opens a job read-only, with its reports to download
    viewersOpen: true,
    recordSummary: ['nextRunAt', 'lastRunAt', 'lastStatus'],
    recordActions: [{ action: 'run', label: 'Run now', privilege: PRIV.reportJobs.edit, icon: 'play', intent: 'primary', done: '{name}: report made.' }],
    recordPanel: 'reportJobRuns',
  },
});
