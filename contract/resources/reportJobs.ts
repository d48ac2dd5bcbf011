// Scheduled report jobs (§2 Report: "scheduled report jobs list/add/edit/{id} [{ip}, 3.9.x]"): a report made on a
// schedule, in the client's zone, for the period just past, and kept for download on the job's page. Two families of
// privileges: security reports with 0.6.5.x, attendance reports with 3.9.x (privileges.families) — a holder of one
// family never sees the other's jobs. The server runs the due jobs each minute (server/resources/reportJobs.ts); no
// delete code: a job is switched off.
//
// Issue 26: a job's report is a CSV or an XLSX (written streamed, cut at REPORT_JOB_MAX_ROWS and saying so), mailed to
// its recipients through the SMTP server of SMTP_URL and/or sent to one of the client's web hooks (a `report.made`
// delivery: signed, retried, in the hook's history), and always kept for download for `keepDays`. Every run is in
// the job's history (`GET …/:id/runs`: when, rows, size, delivered to whom or why it failed); a failed run is retried
// with `POST …/:id/runs/:runId/retry`. One run per due time, however many servers share the database.
import { array, boolean, integer, nullable, object, optional, string, validate, type Infer } from '../structs';
import { API } from '../api';
import { fill, type Sentence } from '../messages';
import { emailAddress } from '../primitives';
import { PRIV } from '../privileges';
import { choice, defineResource, number, ref, switchField, text, timestamp } from './define';
import { WEEKDAYS } from './schedules';

/** The reports a job can make; `family` says whose codes it needs. */
export const REPORT_JOB_KINDS = [
  { value: 'events', label: 'Event report: the period\u2019s events', family: 'security' },
  { value: 'activity', label: 'Activity report: changes made in the period', family: 'security' },
  { value: 'identities', label: 'Identity report: everyone, as on the day it runs', family: 'security' },
  // issue 31: the digest of every shift that ended in the period (its owner needs the handover's code, 0.2.6.0)
  { value: 'shift-handover', label: 'Shift handover: the digest of each shift that ended in the period', family: 'security' },
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

export const REPORT_JOB_FORMATS = [
  { value: 'csv', label: 'CSV (comma-separated text)' },
  { value: 'xlsx', label: 'XLSX (Excel workbook)' },
] as const;
export type ReportJobFormat = (typeof REPORT_JOB_FORMATS)[number]['value'];

/** At most this many recipients of one job. */
export const REPORT_JOB_MAX_RECIPIENTS = 20;

/** A job's recipients as written (commas, semicolons or new lines between addresses): the addresses, or what is wrong. */
export function reportRecipients(text: string | null | undefined): { addresses: string[]; problem?: string | Sentence } {
  const addresses = [
    ...new Set(
      String(text ?? '')
        .split(/[\s,;]+/)
        .map((a) => a.trim())
        .filter(Boolean),
    ),
  ];
  if (addresses.length > REPORT_JOB_MAX_RECIPIENTS)
    return { addresses, problem: fill('list.tooManyAddresses', 'must have at most {max} addresses', { max: REPORT_JOB_MAX_RECIPIENTS }) };
  for (const a of addresses) {
    const [err] = validate(a, emailAddress());
    if (err) return { addresses, problem: `${a}: ${err.message}` };
  }
  return { addresses };
}

/** One run of a job in its history (`GET …/:id/runs`, newest first). */
export const ReportJobRun = object({
  id: integer(),
  ranAt: string(),
  from: string(),
  to: string(),
  /** The schedule's time it was made for; null: Run now. */
  dueAt: nullable(string()),
  rows: integer(),
  ok: boolean(),
  status: string(),
  bytes: integer(),
  format: string(),
  /** Stopped at the row cap. */
  cut: boolean(),
  /** The file can still be downloaded (kept for the job's keepDays). */
  file: boolean(),
  /** The addresses it was mailed to; null: not mailed. */
  mailedTo: nullable(array(string())),
  mailError: nullable(string()),
  /** The web hook delivery, as the web hook worker has it now. */
  webHook: nullable(object({ name: string(), state: string(), error: nullable(string()) })),
  attempts: integer(),
});
export type ReportJobRun = Infer<typeof ReportJobRun>;
/** Whether this server mails reports (SMTP_URL is set): the job's page says so. */
export const ReportJobDelivery = object({ email: boolean(), from: optional(string()), maxRows: integer() });
export type ReportJobDelivery = Infer<typeof ReportJobDelivery>;
export const ReportJobRuns = object({ items: array(ReportJobRun), delivery: ReportJobDelivery });
export type ReportJobRuns = Infer<typeof ReportJobRuns>;

export const reportJobsResource = defineResource({
  name: 'reportJobs',
  table: 'report_jobs',
  api: API.reportJobs,
  route: '/report/scheduled-jobs',
  section: 'report',
  label: { one: 'Scheduled report job', many: 'Scheduled report jobs' },
  icon: 'calendar',
  privileges: {
    view: PRIV.reportJobs.view,
    add: PRIV.reportJobs.add,
    edit: PRIV.reportJobs.edit,
    families: {
      field: 'report',
      of: [
        { values: kinds('security'), ...PRIV.reportJobs },
        { values: kinds('attendance'), ...PRIV.attendanceReportJobs },
      ],
    },
  },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({
      max: 100,
      required: true,
      search: true,
      sort: true,
      unique: 'tenant',
      uniqueMessage: 'is already the name of another job',
      placeholder: 'Monday report',
    }),
    report: choice(REPORT_JOB_KINDS, { required: true, default: 'events', filter: true, sort: true }),
    frequency: choice(REPORT_JOB_FREQUENCIES, { required: true, default: 'daily', filter: true }),
    hour: number({ label: 'At (hour)', min: 0, max: 23, required: true, default: 6, help: 'From 0 to 23, in the client\u2019s time zone' }),
    weekday: choice(WEEKDAYS, {
      label: 'On (weekly)',
      required: true,
      default: '1',
      help: 'The day a weekly job runs',
      shownWhen: { field: 'frequency', values: ['weekly'] },
    }),
    monthDay: number({
      label: 'On day of the month (monthly)',
      min: 1,
      max: 28,
      required: true,
      default: 1,
      help: 'From 1 to 28: the day a monthly job runs',
      shownWhen: { field: 'frequency', values: ['monthly'] },
    }),
    keepRuns: number({ label: 'Reports kept', min: 1, max: 50, required: true, default: 10, help: 'The oldest goes when a new one is made' }),
    keepDays: number({
      label: 'Kept for (days)',
      min: 1,
      max: 366,
      required: true,
      default: 30,
      help: 'A report\u2019s file can be downloaded this many days; its line in the history stays',
    }),
    format: choice(REPORT_JOB_FORMATS, { required: true, default: 'csv', filter: true }),
    // the shape of a list of addresses (the form says it as you type); each address is then checked as an e-mail
    // address, and the count, by reportRecipients on the server
    recipients: text({
      label: 'E-mail to',
      max: 2000,
      widget: 'textarea',
      wide: true,
      placeholder: 'security@example.com, hr@example.com',
      pattern: /^[\s,;]*[^\s,;@]+@[^\s,;@]+(?:[\s,;]+[^\s,;@]+@[^\s,;@]+)*[\s,;]*$/,
      help: 'Addresses separated by commas or new lines (at most 20); mailed only when the server has an SMTP server (SMTP_URL)',
    }),
    webHookId: ref('webHooks', { label: 'Web hook', onDelete: 'set-null', help: 'Empty: none. Receives a signed report.made delivery with the file' }),
    webHookName: text({ label: 'Web hook', max: 100, virtual: true, readOnly: true, from: 'webHookId' }),
    enabled: switchField({ label: 'Runs on its schedule', default: true, help: 'Off: the job keeps its reports and makes no more until switched on' }),
    nextRunAt: timestamp({ label: 'Next run', sort: true }),
    lastRunAt: timestamp({ label: 'Last run', sort: true }),
    lastStatus: text({ label: 'Last result', max: 500, readOnly: true }),
    lastRunId: number({ label: 'Last report', readOnly: true, virtual: true }),
  },
  list: { title: ['name'], columns: ['report', 'frequency', 'nextRunAt', 'lastRunAt', 'lastStatus', 'enabled'], sort: ['name', 'asc'] },
  form: [
    { title: 'Report', description: 'What is made: each report covers the period just past, in the client\u2019s time zone.', fields: ['name', 'report'] },
    {
      title: 'Schedule',
      description: 'When it is made, and how many of its reports are kept for download.',
      fields: ['frequency', 'hour', 'weekday', 'monthDay', 'keepRuns', 'keepDays', 'enabled'],
    },
    {
      title: 'Delivery',
      description: 'Where each report goes besides this page: in which format, to whom by e-mail, to which web hook.',
      fields: ['format', 'recipients', 'webHookId'],
    },
  ],
  screens: {
    // a view holder (an auditor) opens a job read-only, with its reports to download
    viewersOpen: true,
    recordSummary: ['nextRunAt', 'lastRunAt', 'lastStatus'],
    recordActions: [{ action: 'run', label: 'Run now', privilege: PRIV.reportJobs.edit, icon: 'play', intent: 'primary', done: '{name}: report made.' }],
    recordPanel: 'reportJobRuns',
  },
});
