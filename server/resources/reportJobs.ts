// Scheduled report jobs (contract/resources/reportJobs.ts) on the server: when a job runs next (in its client's zone),
// what a run makes (a CSV or XLSX of the period just past, as its owner may see it, written streamed and cut at the
// row cap), where it goes (mail through SMTP_URL with nodemailer, the client's web hook through the web hooks' outbox,
// always kept for download for the job's keepDays), the runner that makes the due ones each minute (one run per due
// time on a shared database), Run now, Retry of a failed run, and the job's history. A report shows what the job's owner (who added it) may see:
// their divisions for the family's view code; an owner who no longer holds that code gets a failed run saying so.
// The parts: reportJobClock.ts (a job's row, next run, period), reportJobSources.ts (what each report holds),
// reportJobRuns.ts (making and delivering a run), reportJobScheduler.ts (the runner), reportJobRoutes.ts (runs over HTTP);
// this file holds the catalogue's hooks and names the parts callers use.
import { PRIV } from '../../contract';
import { reportRecipients } from '../../contract/resources/reportJobs';
import type { ResourceHooks } from '../crud/hooks';
import { loadJob, nextRunAt } from './reportJobClock';
import { runJob } from './reportJobRuns';

export { nextRunAt } from './reportJobClock';
export { REPORT_CONTENT_TYPES, WEBHOOK_FILE_MAX_BYTES, makeRun, reportJobDelivery, reportJobEnv, runJob, type ReportJobOptions } from './reportJobRuns';
export { runDueJobs, startReportJobs } from './reportJobScheduler';
export { reportJobRoutes } from './reportJobRoutes';

export const reportJobHooks: ResourceHooks = {
  select: { lastRunId: '(select max(x.id) from report_job_runs x where x.job_id = t.id and x.ok)' },
  async validate(_ctx, input) {
    if (!('recipients' in input)) return [];
    const { problem } = reportRecipients(input.recipients as string | null);
    return problem ? [{ field: 'recipients', message: problem }] : [];
  },
  async beforeInsert(ctx, input) {
    return { created_by: ctx.userId, next_run_at: await nextRunAt(ctx.tx, ctx.clientId!, input as never) };
  },
  async beforeUpdate(ctx, input) {
    return { next_run_at: await nextRunAt(ctx.tx, ctx.clientId!, input as never) };
  },
  actions: {
    // Run now: the report of the period just past, made and delivered at once (the schedule goes on as it was)
    run: {
      privilege: PRIV.reportJobs.edit,
      async run(ctx, before) {
        await runJob(ctx.tx, await loadJob(ctx.tx, before.id));
      },
    },
  },
};
