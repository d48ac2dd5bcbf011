// The scheduled report jobs' SQL (server/reports/; issue 48: the room's queries in the queries room): a job's row as the
// runner reads it, its schedule in its client's zone, the runs (claimed, made, trimmed, retried, read back with their
// web hook delivery) and what a report holds, read a page at a time.
import type { ReportJobKind } from '../../../contract';
import type { ReportJobFormat } from '../../../contract/resources/reportJobs';
import type { Db } from '../db';
import { tenant, tenantOf } from '../tenant';

/** A job's row as the runner reads it. */
export interface ReportJob {
  id: number;
  client_id: number;
  name: string;
  report: ReportJobKind;
  frequency: string;
  hour: number;
  weekday: string;
  month_day: number;
  keep_runs: number;
  keep_days: number;
  enabled: boolean;
  created_by: number | null;
  format: ReportJobFormat;
  recipients: string | null;
  web_hook_id: number | null;
  next_run_at: unknown;
}

const JOB_COLUMNS =
  'id, client_id, name, report, frequency, hour, weekday, month_day, keep_runs, keep_days, enabled, created_by, format, recipients, web_hook_id, next_run_at';

/** When a schedule (daily, weekly on `weekday`, monthly on `monthDay`, at `hour`) comes round next after now, in the client's zone. */
export async function nextScheduledRun(db: Db, clientId: number, s: { frequency: string; hour: number; weekday: number; monthDay: number }): Promise<unknown> {
  const { rows } = await db.query<{ at: unknown }>(
    `
    with z as (select timezone as tz, now() at time zone timezone as n from clients where id = $1),
    c as (select tz, n, case $2::text
        when 'daily' then date_trunc('day', n) + $3::int * interval '1 hour'
        when 'weekly' then date_trunc('day', n) + ((($4::int - extract(dow from n)::int) + 7) % 7) * interval '1 day' + $3::int * interval '1 hour'
        else date_trunc('month', n) + ($5::int - 1) * interval '1 day' + $3::int * interval '1 hour' end as at from z)
    select (case when at > n then at else at + case $2::text when 'daily' then interval '1 day' when 'weekly' then interval '7 days' else interval '1 month' end end) at time zone tz as at from c`,
    [clientId, s.frequency, s.hour, s.weekday, s.monthDay],
  );
  return rows[0]?.at;
}

/** The local days a run due at `at` (or now) covers, by `frequency`, and the client's zone. */
export async function reportPeriod(db: Db, clientId: number, frequency: string, at: string | null): Promise<{ from: string; to: string; zone: string }> {
  const { rows } = await db.query<{ from: string; to: string; zone: string }>(
    `
    select timezone as zone,
      (case $2::text when 'daily' then d - 1 when 'weekly' then d - 7 else (date_trunc('month', d) - interval '1 month')::date end)::text as "from",
      (case $2::text when 'monthly' then (date_trunc('month', d) - interval '1 day')::date else d - 1 end)::text as "to"
    from (select timezone, (coalesce($3::timestamptz, now()) at time zone timezone)::date as d from clients where id = $1) x`,
    [clientId, frequency, at],
  );
  return rows[0];
}

/** The job `id` as the runner reads it. */
export async function loadReportJob(db: Db, id: number): Promise<ReportJob> {
  const { rows } = await db.query<ReportJob>(`select ${JOB_COLUMNS} from report_jobs where id = $1`, [id]);
  return rows[0];
}

/** The enabled jobs whose next run has passed, the earliest first (100 at most). */
export async function dueReportJobs(db: Db): Promise<ReportJob[]> {
  const { rows } = await db.query<ReportJob>(
    `select ${JOB_COLUMNS} from report_jobs where enabled and next_run_at <= now() order by next_run_at, id limit 100`,
  );
  return rows;
}

/** Job `id` locked in `tx` when it is still due (none when another runner holds it or made it meanwhile). */
export async function lockDueReportJob(tx: Db, id: number): Promise<ReportJob | undefined> {
  const { rows } = await tx.query<ReportJob>(
    `select ${JOB_COLUMNS} from report_jobs where id = $1 and enabled and next_run_at <= now() for update skip locked`,
    [id],
  );
  return rows[0];
}

export async function setReportJobNextRun(db: Db, id: number, next: string | null): Promise<void> {
  await db.query('update report_jobs set next_run_at = $2 where id = $1', [id, next]);
}

/** Drops the files of runs past their job's keep_days (the run's line stays, marked expired). */
export async function expireReportFiles(db: Db): Promise<void> {
  await db.query(`update report_job_runs x set file = null, content = null, expired = true from report_jobs j
    where j.id = x.job_id and not x.expired and (x.file is not null or x.content is not null) and x.ran_at < now() - j.keep_days * interval '1 day'`);
}

/** A new run row of `job` for `dueAt` (null: Run now); null when that due time already has its run. */
export async function claimReportRun(db: Db, job: ReportJob, period: { from: string; to: string }, dueAt: string | null): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    `insert into report_job_runs (job_id, client_id, period_from, period_to, ok, status, format, due_at)
    values ($1, $2, $3::date, $4::date, false, 'Being made', $5, $6::timestamptz) on conflict (job_id, due_at) do nothing returning id`,
    [job.id, job.client_id, period.from, period.to, job.format, dueAt],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** Queues a report.made delivery `body` for web hook `hookId` of the client in the web hooks' outbox: its id and the hook's name (none: no such hook). */
export async function queueReportDelivery(db: Db, clientId: number, hookId: number, body: unknown): Promise<{ id: string; name: string } | undefined> {
  const params: unknown[] = [hookId];
  const inClient = tenant(params, clientId); // $2
  params.push(JSON.stringify(body)); // $3
  const { rows } = await db.query<{ id: string; name: string }>(
    `insert into webhook_outbox (client_id, hook_id, event_type, body)
        select client_id, id, 'report.made', $3::jsonb from web_hooks where id = $1 and ${inClient} returning id::text, (select name from web_hooks where id = $1) as name`,
    params,
  );
  return rows[0];
}

/** What run `runId` made and how it went. */
export interface ReportRunOutcome {
  rows: number;
  ok: boolean;
  status: string;
  file: Buffer | null;
  bytes: number;
  cut: boolean;
  format: string;
  mailedTo: string | null;
  mailError: string | null;
  outboxId: string | null;
}

/** Writes run `runId`'s outcome (its file kept for download, the delivery's traces), made now. */
export async function finishReportRun(db: Db, runId: number, o: ReportRunOutcome): Promise<void> {
  await db.query(
    `update report_job_runs set ran_at = now(), rows = $2, ok = $3, status = $4, file = $5, content = null, bytes = $6, cut = $7, format = $8,
      mailed_to = $9, mail_error = $10, webhook_outbox_id = $11::bigint, expired = false where id = $1`,
    [runId, o.rows, o.ok, o.status, o.file, o.bytes, o.cut, o.format, o.mailedTo, o.mailError, o.outboxId],
  );
}

/** Drops job `jobId`'s runs beyond its newest `keepRuns`. */
export async function trimReportRuns(db: Db, jobId: number, keepRuns: number): Promise<void> {
  await db.query(`delete from report_job_runs where job_id = $1 and id not in (select id from report_job_runs where job_id = $1 order by id desc limit $2)`, [
    jobId,
    keepRuns,
  ]);
}

/** Notes on job `jobId` that it ran now, with `status`. */
export async function noteReportJobRan(db: Db, jobId: number, status: string): Promise<void> {
  await db.query('update report_jobs set last_run_at = now(), last_status = $2 where id = $1', [jobId, status]);
}

/** The report kind of job `id` of the client (none: not there). */
export async function reportJobKindOf(db: Db, clientId: number, id: number): Promise<{ report: ReportJobKind } | undefined> {
  const params: unknown[] = [id];
  const { rows } = await db.query<{ report: ReportJobKind }>(`select report from report_jobs where id = $1 and ${tenant(params, clientId)}`, params);
  return rows[0];
}

const RUN_COLUMNS = `x.id, x.ran_at, x.due_at, x.period_from::text as period_from, x.period_to::text as period_to, x.rows, x.ok, x.status, x.bytes, x.format, x.cut,
  (x.file is not null or x.content is not null) as has_file, x.mailed_to, x.mail_error, x.attempts, h.name as hook_name, o.state as hook_state,
  (select a.error from webhook_attempts a where a.outbox_id = o.id order by a.id desc limit 1) as hook_error
  from report_job_runs x left join webhook_outbox o on o.id = x.webhook_outbox_id left join web_hooks h on h.id = o.hook_id`;

/** Job `jobId`'s runs, newest first, each with its web hook delivery's state and last error. */
export async function reportJobRunRows(db: Db, jobId: number): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query<Record<string, unknown>>(`select ${RUN_COLUMNS} where x.job_id = $1 order by x.id desc`, [jobId]);
  return rows;
}

/** Run `runId` as the history shows it (none: gone). */
export async function reportJobRunRow(db: Db, runId: number): Promise<Record<string, unknown> | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(`select ${RUN_COLUMNS} where x.id = $1`, [runId]);
  return rows[0];
}

/** Run `runId` of job `jobId` locked in `tx` for a retry: whether it went well, its period and the client's zone. */
export async function lockReportRunForRetry(
  tx: Db,
  runId: number,
  jobId: number,
): Promise<{ ok: boolean; period_from: string; period_to: string; zone: string } | undefined> {
  const { rows } = await tx.query<{ ok: boolean; period_from: string; period_to: string; zone: string }>(
    `select x.ok, x.period_from::text as period_from, x.period_to::text as period_to, c.timezone as zone
        from report_job_runs x join clients c on c.id = x.client_id where x.id = $1 and x.job_id = $2 for update of x`,
    [runId, jobId],
  );
  return rows[0];
}

export async function countReportRunAttempt(db: Db, runId: number): Promise<void> {
  await db.query('update report_job_runs set attempts = attempts + 1 where id = $1', [runId]);
}

/** Run `runId` of job `jobId`'s file (or the CSV text of an older run), its format, the job's name and the run's period. */
export async function reportRunFile(
  db: Db,
  runId: number,
  jobId: number,
): Promise<{ file: Uint8Array | null; content: string | null; format: string; name: string; period_from: string; period_to: string } | undefined> {
  const { rows } = await db.query<{ file: Uint8Array | null; content: string | null; format: string; name: string; period_from: string; period_to: string }>(
    `select x.file, x.content, x.format, j.name,
      x.period_from::text as period_from, x.period_to::text as period_to from report_job_runs x join report_jobs j on j.id = x.job_id where x.id = $1 and x.job_id = $2`,
    [runId, jobId],
  );
  return rows[0];
}

// What a report holds: each page keyset-paged, REPORT_PAGE rows at a time, of the period's local days in the client's
// zone ($1 the client, $2..$4 from, to and zone).
export const REPORT_PAGE = 2000;
const BOUNDS = [`($2::date::timestamp at time zone $4::text)`, `(($3::date + 1)::timestamp at time zone $4::text)`];
/** A report's period as parameters $1..$4 and the tenant condition on $1. */
function inPeriod(clientId: number, period: { from: string; to: string; zone: string }) {
  const p: unknown[] = [];
  const own = tenantOf(p, clientId); // $1
  p.push(period.from, period.to, period.zone); // $2..$4
  return { p, own };
}
type Period = { from: string; to: string; zone: string };
type R = Record<string, unknown>;

/** The period's events after id `afterId` (within `divisions`, all when null; an event without a division is everyone's). */
export async function reportEventsPage(db: Db, clientId: number, period: Period, divisions: number[] | null, afterId: number): Promise<R[]> {
  const { p, own } = inPeriod(clientId, period);
  return (
    await db.query<R>(
      `select e.id, e.at, e.event_code, e.event_source_name, e.event_point_name, e.message, e.alert, e.priority from events e
          where ${own('e')} and e.at >= ${BOUNDS[0]} and e.at < ${BOUNDS[1]} and ($5::int[] is null or e.division_id is null or e.division_id = any($5::int[]))
          and e.id > $6 order by e.id limit ${REPORT_PAGE}`,
      [...p, divisions, afterId],
    )
  ).rows;
}

/** The period's audit entries after id `afterId`, each with its actor's name. */
export async function reportActivityPage(db: Db, clientId: number, period: Period, afterId: number): Promise<R[]> {
  const { p, own } = inPeriod(clientId, period);
  return (
    await db.query<R>(
      `select a.*, u.name as actor_name from audit_log a left join users u on u.username = a.actor
          where ${own('a')} and a.at >= ${BOUNDS[0]} and a.at < ${BOUNDS[1]} and a.id > $5 order by a.id limit ${REPORT_PAGE}`,
      [...p, afterId],
    )
  ).rows;
}

/** The client's identities in `divisions` by name, after `after` (null: from the first). */
export async function reportIdentitiesPage(
  db: Db,
  clientId: number,
  divisions: number[],
  after: { id: unknown; k1: unknown; k2: unknown } | null,
): Promise<R[]> {
  const params: unknown[] = [divisions, after?.id ?? null, after?.k1 ?? '', after?.k2 ?? ''];
  return (
    await db.query<R>(
      `select i.id, i.employee_no, i.last_name, i.first_name, coalesce(i.last_name, '') as k1, coalesce(i.first_name, '') as k2,
            d.name as division, i.status, i.valid_from::text as valid_from, i.valid_to::text as valid_to
          from identities i join divisions d on d.id = i.division_id where i.division_id = any($1::int[]) and ${tenant(params, clientId, 'i')}
          and ($2::int is null or (coalesce(i.last_name, ''), coalesce(i.first_name, ''), i.id) > ($3::text, $4::text, $2::int))
          order by coalesce(i.last_name, ''), coalesce(i.first_name, ''), i.id limit ${REPORT_PAGE}`,
      params,
    )
  ).rows;
}

/** The period's first and last instants (its local days in the client's zone). */
export async function reportPeriodInstants(db: Db, clientId: number, period: Period): Promise<{ s: Date; e: Date }> {
  const { p } = inPeriod(clientId, period);
  const {
    rows: [b],
  } = await db.query<{ s: Date; e: Date }>(`select $1::int as c, ${BOUNDS[0]} as s, ${BOUNDS[1]} as e`, p);
  return b;
}
