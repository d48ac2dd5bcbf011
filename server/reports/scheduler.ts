// The runner of scheduled report jobs (server/reports/index.ts): each minute it makes the due ones, one run
// per due time on a shared database, and drops the files past their job's keepDays.
import type { Db } from '../db/db';
import { dueReportJobs, expireReportFiles, lockDueReportJob, setReportJobNextRun } from '../db/queries/reportJobs';
import { iso } from '../db/values';
import { nextRunAt, periodOf } from './clock';
import { claimRun, makeRun, type ReportJobOptions } from './runs';

/**
 * Makes every due job's report (enabled, next run passed); returns how many it made. One run per due time: the run
 * row is claimed with the job's due time (a unique index on (job_id, due_at), insert … on conflict do nothing) in the
 * transaction that moves the job's next run ahead, so two servers on one database make it once. The report itself
 * is made after that commit. Errors of one job never stop the rest.
 */
export async function runDueJobs(db: Db, options: ReportJobOptions | ((m: string) => void) = {}): Promise<number> {
  const o: ReportJobOptions = typeof options === 'function' ? { log: options } : options;
  const log = o.log ?? (() => {});
  // files of runs past their job's keep_days are dropped (the run's line stays, saying so)
  await expireReportFiles(db).catch((e) => log(`report files: ${(e as Error).message}`));
  let ran = 0;
  for (const due of await dueReportJobs(db)) {
    try {
      const claimed = await db.transaction(async (tx) => {
        const job = await lockDueReportJob(tx, due.id);
        if (!job) return null;
        const dueAt = iso(job.next_run_at)!;
        const period = await periodOf(tx, job.client_id, job.frequency, dueAt);
        const runId = await claimRun(tx, job, period, dueAt);
        const next = await nextRunAt(tx, job.client_id, {
          frequency: job.frequency,
          hour: job.hour,
          weekday: job.weekday,
          monthDay: job.month_day,
          enabled: job.enabled,
        });
        await setReportJobNextRun(tx, job.id, next);
        return runId === null ? null : { job, runId, period };
      });
      if (!claimed) continue;
      await makeRun(db, claimed.job, claimed.runId, claimed.period, o);
      ran++;
    } catch (e) {
      log(`report job ${due.id}: ${(e as Error).message}`);
    }
  }
  return ran;
}

/** Runs the due jobs every `everyMs` (a minute); returns the stop function. */
export function startReportJobs(db: Db, log: (m: string) => void, everyMs = 60_000): () => void {
  if (everyMs <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void runDueJobs(db, { log })
      .catch((e) => log(`report jobs: ${(e as Error).message}`))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
