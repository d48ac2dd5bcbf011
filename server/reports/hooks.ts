// The catalogue's hooks of the scheduled report jobs (server/reports/index.ts), registered with the other resources'
// (server/resources/index.ts): the last good run's id on each row, the recipients checked, the next run worked out on
// every write, and Run now.
import { PRIV, problemSaid } from '../../contract';
import { reportRecipients } from '../../contract/resources/reportJobs';
import type { ResourceHooks } from '../crud/hooks';
import { loadJob, nextRunAt } from './clock';
import { runJob } from './runs';

export const reportJobHooks: ResourceHooks = {
  select: { lastRunId: '(select max(x.id) from report_job_runs x where x.job_id = t.id and x.ok)' },
  async validate(_ctx, input) {
    if (!('recipients' in input)) return [];
    const { problem } = reportRecipients(input.recipients as string | null);
    return problem ? [{ field: 'recipients', ...problemSaid(problem) }] : [];
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
