// Scheduled report jobs (contract/resources/reportJobs.ts) on the server, a room of their own (issue 48): when a job runs
// next (in its client's zone), what a run makes (a CSV or XLSX of the period just past, as its owner may see it, written
// streamed and cut at the row cap), where it goes (mail through SMTP_URL with nodemailer, the client's web hook through
// the web hooks' outbox, always kept for download for the job's keepDays), the runner that makes the due ones each
// minute (one run per due time on a shared database), Run now, Retry of a failed run, and the job's history. A report
// shows what the job's owner (who added it) may see: their divisions for the family's view code; an owner who no longer
// holds that code gets a failed run saying so.
// The parts: clock.ts (a job's row, next run, period), sources.ts (what each report holds), runs.ts (making and
// delivering a run), scheduler.ts (the runner), routes.ts (runs over HTTP), hooks.ts (the catalogue's hooks, registered
// with the other resources' in server/resources/index.ts); their SQL is server/db/queries/reportJobs.ts. This file names
// the parts callers use.
export { nextRunAt } from './clock';
export { REPORT_CONTENT_TYPES, WEBHOOK_FILE_MAX_BYTES, makeRun, reportJobDelivery, reportJobEnv, runJob, type ReportJobOptions } from './runs';
export { runDueJobs, startReportJobs } from './scheduler';
export { reportJobRoutes } from './routes';
export { reportJobHooks } from './hooks';
