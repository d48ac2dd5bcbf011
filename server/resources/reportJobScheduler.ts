// The runner of scheduled report jobs (server/resources/reportJobs.ts): each minute it makes the due ones, one run
// per due time on a shared database, and drops the files past their job's keepDays.
import type { Db } from '../db/db';
import { iso } from '../db/values';
import { JOB_COLUMNS, nextRunAt, periodOf, type Job } from './reportJobClock';
import { claimRun, makeRun, type ReportJobOptions } from './reportJobRuns';

/** Files of runs past their job's keep_days are dropped (the run's line stays, saying so). */
async function expireFiles(db: Db): Promise<void> {
  await db.query(`update report_job_runs x set file = null, content = null, expired = true from report_jobs j
    where j.id = x.job_id and not x.expired and (x.file is not null or x.content is not null) and x.ran_at < now() - j.keep_days * interval '1 day'`);
}

/**
 * Makes every due job's report (enabled, next run passed); returns how many it made. One run per due time: the run
 * row is claimed with the job's due time (a unique index on (job_id, due_at), insert … on conflict do nothing) in the
 * transaction that moves the job's next run ahead, so two servers on one database make it once. The report itself
 * is made after that commit. Errors of one job never stop the rest.
 */
export async function runDueJobs(db: Db, options: ReportJobOptions | ((m: string) => void) = {}): Promise<number> {
  const o: ReportJobOptions = typeof options === 'function' ? { log: options } : options;
  const log = o.log ?? (() => {});
  await expireFiles(db).catch((e) => log(`report files: ${(e as Error).message}`));
  const { rows } = await db.query<Job>(`select ${JOB_COLUMNS} from report_jobs where enabled and next_run_at <= now() order by next_run_at, id limit 100`);
  let ran = 0;
  for (const due of rows) {
    try {
      const claimed = await db.transaction(async (tx) => {
        const {
          rows: [job],
        } = await tx.query<Job>(`select ${JOB_COLUMNS} from report_jobs where id = $1 and enabled and next_run_at <= now() for update skip locked`, [due.id]);
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
        await tx.query('update report_jobs set next_run_at = $2 where id = $1', [job.id, next]);
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
