// Scheduled report jobs (contract/resources/reportJobs.ts) on the server: when a job runs next (in its client's zone),
// what a run makes (a CSV of the period just past, as its owner may see it), the runner that makes the due ones each
// minute, Run now, and the job's reports for download. A report shows what the job's owner (who added it) may see:
// their divisions for the family's view code; an owner who no longer holds that code gets a failed run saying so.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PRIV, REPORT_JOB_MAX_ROWS, familyOf, mayOnRow, reportJobsResource, type ReportJobKind } from '../../contract';
import { privilegeEntries } from '../auth/access';
import { clientDivisionIds, eventDivisions } from '../auth/eventScope';
import { csvCell } from '../crud/plugin';
import type { ResourceHooks, Row } from '../crud/hooks';
import type { Db } from '../db/db';
import { attendanceClock, attendanceDays, summarise } from '../db/queries/attendance';
import { HttpError, clientOf, divisionsFor, fill, idParam, iso, principal } from '../http/common';

interface Job { id: number; client_id: number; name: string; report: ReportJobKind; frequency: string; hour: number; weekday: string; month_day: number; keep_runs: number; enabled: boolean; created_by: number | null }

/** The next time the schedule comes round after now, in the client's zone (SQL; null when the job is off). */
export async function nextRunAt(db: Db, clientId: number, j: { frequency: string; hour: number; weekday: string; monthDay: number; enabled: boolean }): Promise<string | null> {
  if (!j.enabled) return null;
  const { rows } = await db.query<{ at: unknown }>(`
    with z as (select timezone as tz, now() at time zone timezone as n from clients where id = $1),
    c as (select tz, n, case $2::text
        when 'daily' then date_trunc('day', n) + $3::int * interval '1 hour'
        when 'weekly' then date_trunc('day', n) + ((($4::int - extract(dow from n)::int) + 7) % 7) * interval '1 day' + $3::int * interval '1 hour'
        else date_trunc('month', n) + ($5::int - 1) * interval '1 day' + $3::int * interval '1 hour' end as at from z)
    select (case when at > n then at else at + case $2::text when 'daily' then interval '1 day' when 'weekly' then interval '7 days' else interval '1 month' end end) at time zone tz as at from c`,
  [clientId, j.frequency, j.hour, Number(j.weekday), j.monthDay]);
  return iso(rows[0]?.at) ?? null;
}

/** The period a run at `now` covers, as local days 'YYYY-MM-DD' (daily: yesterday; weekly: the 7 days before; monthly: last month). */
async function periodOf(db: Db, clientId: number, frequency: string): Promise<{ from: string; to: string; zone: string }> {
  const { rows } = await db.query<{ from: string; to: string; zone: string }>(`
    select timezone as zone,
      (case $2::text when 'daily' then d - 1 when 'weekly' then d - 7 else (date_trunc('month', d) - interval '1 month')::date end)::text as "from",
      (case $2::text when 'monthly' then (date_trunc('month', d) - interval '1 day')::date else d - 1 end)::text as "to"
    from (select timezone, (now() at time zone timezone)::date as d from clients where id = $1) x`, [clientId, frequency]);
  return rows[0];
}

const line = (cells: unknown[]) => cells.map(csvCell).join(',') + '\r\n';

/** A report's CSV for its owner's view of the period; `cut` when it stopped at REPORT_JOB_MAX_ROWS. */
async function makeReport(db: Db, job: Job, period: { from: string; to: string; zone: string }): Promise<{ csv: string; rows: number; cut: boolean }> {
  const owner = job.created_by === null ? [] : await privilegeEntries(db, job.created_by, job.client_id);
  const holds = (code: string) => owner.some((e) => e.privilegeIds.includes(code));
  const view = familyOf(reportJobsResource, job.report)!.view; // the declaration's family of this report
  if (!holds(view)) throw new HttpError(409, fill('Its owner no longer holds privilege {code} in this client: nothing was made', { code: view }));
  const max = REPORT_JOB_MAX_ROWS;
  const bounds = [`($2::date::timestamp at time zone $4::text)`, `(($3::date + 1)::timestamp at time zone $4::text)`];
  let header: string[], rows: unknown[][];
  switch (job.report) {
    case 'events': {
      const divisions = await eventDivisions({ clientId: job.client_id, entries: owner, divisionIds: (c) => clientDivisionIds(db, c) }, [PRIV.events.view, PRIV.eventReport]);
      header = ['id', 'time', 'eventCode', 'eventSourceName', 'eventPointName', 'message', 'alert', 'priority'];
      rows = (await db.query<Record<string, unknown>>(`select e.id, e.at, e.event_code, e.event_source_name, e.event_point_name, e.message, e.alert, e.priority from events e
        where e.client_id = $1 and e.at >= ${bounds[0]} and e.at < ${bounds[1]} and ($5::int[] is null or e.division_id is null or e.division_id = any($5::int[]))
        order by e.id limit ${max + 1}`, [job.client_id, period.from, period.to, period.zone, divisions])).rows
        .map((r) => [r.id, iso(r.at), r.event_code, r.event_source_name, r.event_point_name, r.message, r.alert, r.priority]);
      break;
    }
    case 'activity':
      header = ['time', 'actor', 'action', 'entity', 'entityId'];
      rows = (await db.query<Record<string, unknown>>(`select at, actor, action, entity, entity_id from audit_log
        where client_id = $1 and at >= ${bounds[0]} and at < ${bounds[1]} order by id limit ${max + 1}`, [job.client_id, period.from, period.to, period.zone])).rows
        .map((r) => [iso(r.at), r.actor, r.action, r.entity, r.entity_id]);
      break;
    case 'identities': {
      const divisions = divisionsFor({ entries: owner }, [PRIV.identityReport, PRIV.identities.view]);
      header = ['employeeNo', 'lastName', 'firstName', 'division', 'status', 'validFrom', 'validTo'];
      rows = (await db.query<Record<string, unknown>>(`select i.employee_no, i.last_name, i.first_name, d.name as division, i.status, i.valid_from::text as valid_from, i.valid_to::text as valid_to
        from identities i join divisions d on d.id = i.division_id where i.client_id = $1 and i.division_id = any($2::int[])
        order by i.last_name, i.first_name, i.id limit ${max + 1}`, [job.client_id, divisions])).rows
        .map((r) => [r.employee_no, r.last_name, r.first_name, r.division, r.status, r.valid_from, r.valid_to]);
      break;
    }
    case 'daily-attendance':
    case 'attendance-summary': {
      const code = job.report === 'daily-attendance' ? PRIV.dailyAttendance : PRIV.attendanceSummaries;
      const divisions = divisionsFor({ entries: owner }, [code, PRIV.attendanceReportJobs.view]);
      const clock = await attendanceClock(db, job.client_id);
      const days = await attendanceDays(db, job.client_id, { from: period.from, to: period.to }, divisions, clock);
      if (job.report === 'daily-attendance') {
        header = ['day', 'team', 'employeeNo', 'name', 'status', 'shiftStart', 'firstIn', 'lastOut', 'workedMinutes', 'lateMinutes', 'leave'];
        rows = [...days].flatMap(([day, list]) => list.map((r) => [day, r.team, r.employeeNo, r.name, r.status, r.shiftStart, r.firstIn, r.lastOut, r.workedMinutes, r.lateMinutes, r.leave]));
      } else {
        header = ['team', 'employeeNo', 'name', 'scheduledDays', 'presentDays', 'lateDays', 'absentDays', 'leaveDays', 'workedMinutes', 'lateMinutes'];
        rows = summarise(days).map((r) => [r.team, r.employeeNo, r.name, r.scheduledDays, r.presentDays, r.lateDays, r.absentDays, r.leaveDays, r.workedMinutes, r.lateMinutes]);
      }
      break;
    }
  }
  const cut = rows.length > max;
  return { csv: line(header) + rows.slice(0, max).map(line).join(''), rows: Math.min(rows.length, max), cut };
}

/** One run of a job now (inside `tx`): a report kept (the oldest beyond keep_runs dropped), the job's last result set. */
export async function runJob(tx: Db, job: Job): Promise<void> {
  const period = await periodOf(tx, job.client_id, job.frequency);
  let status: string, made: { csv: string; rows: number; cut: boolean } | null = null;
  try {
    made = await makeReport(tx, job, period);
    status = `${made.rows} rows, ${period.from} to ${period.to}${made.cut ? ` (cut at ${REPORT_JOB_MAX_ROWS})` : ''}`;
  } catch (e) {
    status = `Failed: ${(e as Error).message}`.slice(0, 500);
  }
  await tx.query(`insert into report_job_runs (job_id, client_id, period_from, period_to, rows, ok, status, content)
    values ($1, $2, $3::date, $4::date, $5, $6, $7, $8)`, [job.id, job.client_id, period.from, period.to, made?.rows ?? 0, made !== null, status, made?.csv ?? null]);
  await tx.query(`delete from report_job_runs where job_id = $1 and id not in (select id from report_job_runs where job_id = $1 order by id desc limit $2)`, [job.id, job.keep_runs]);
  const next = await nextRunAt(tx, job.client_id, { frequency: job.frequency, hour: job.hour, weekday: job.weekday, monthDay: job.month_day, enabled: job.enabled });
  await tx.query('update report_jobs set last_run_at = now(), last_status = $2, next_run_at = $3 where id = $1', [job.id, status, next]);
}

const JOB_COLUMNS = 'id, client_id, name, report, frequency, hour, weekday, month_day, keep_runs, enabled, created_by';

/** Makes every due job's report (enabled, next run passed); returns how many it made. Errors of one job never stop the rest. */
export async function runDueJobs(db: Db, log: (m: string) => void = () => {}): Promise<number> {
  const { rows } = await db.query<Job>(`select ${JOB_COLUMNS} from report_jobs where enabled and next_run_at <= now() order by next_run_at, id limit 100`);
  let ran = 0;
  for (const job of rows) {
    try {
      // claimed in its transaction: another server on the same database (scale-out) skips a job one is making
      const claimed = await db.transaction(async (tx) => {
        const { rows: [still] } = await tx.query<Job>(`select ${JOB_COLUMNS} from report_jobs where id = $1 and enabled and next_run_at <= now() for update skip locked`, [job.id]);
        if (!still) return false;
        await runJob(tx, still);
        return true;
      });
      if (claimed) ran++;
    } catch (e) { log(`report job ${job.id}: ${(e as Error).message}`); }
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
    void runDueJobs(db, log).catch((e) => log(`report jobs: ${(e as Error).message}`)).finally(() => { running = false; });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

const asJob = (row: Row): Job => ({
  id: row.id, client_id: Number(row.clientId), name: String(row.name), report: row.report as ReportJobKind, frequency: String(row.frequency), hour: Number(row.hour),
  weekday: String(row.weekday), month_day: Number(row.monthDay), keep_runs: Number(row.keepRuns), enabled: !!row.enabled, created_by: null,
});

export const reportJobHooks: ResourceHooks = {
  select: { lastRunId: '(select max(x.id) from report_job_runs x where x.job_id = t.id and x.ok)' },
  async beforeInsert(ctx, input) {
    return { created_by: ctx.userId, next_run_at: await nextRunAt(ctx.tx, ctx.clientId!, input as never) };
  },
  async beforeUpdate(ctx, input) {
    return { next_run_at: await nextRunAt(ctx.tx, ctx.clientId!, input as never) };
  },
  actions: {
    // Run now: the report of the period just past, made at once (the schedule goes on as it was)
    run: {
      privilege: PRIV.reportJobs.edit,
      async run(ctx, before) {
        const { rows } = await ctx.tx.query<{ created_by: number | null }>('select created_by from report_jobs where id = $1', [before.id]);
        await runJob(ctx.tx, { ...asJob(before), created_by: rows[0]?.created_by ?? null });
      },
    },
  },
};

/** The job `id` of the request's client, when its family's view code is held (404 otherwise: another family's or tenant's). */
async function visibleJob(db: Db, req: FastifyRequest): Promise<number> {
  const id = idParam(req, 'Scheduled report job');
  const { rows } = await db.query<{ report: ReportJobKind }>('select report from report_jobs where id = $1 and client_id = $2', [id, clientOf(req)]);
  const held = !!rows[0] && mayOnRow(reportJobsResource, 'view', principal(req).entries.flatMap((e) => e.privilegeIds), rows[0]);
  if (!rows[0] || !held) throw new HttpError(404, fill('{what} not found', { what: reportJobsResource.label.one }));
  return id;
}

/** A job's reports: `GET …/:id/runs` lists them (newest first), `GET …/:id/runs/:runId/file` is one report's CSV. */
export function reportJobRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const config = { privileges: [PRIV.reportJobs.view, PRIV.attendanceReportJobs.view] };
  app.get(`${reportJobsResource.api}/:id/runs`, { config }, async (req) => {
    const id = await visibleJob(db, req);
    const { rows } = await db.query<Record<string, unknown>>(`select id, ran_at, period_from::text as period_from, period_to::text as period_to, rows, ok, status,
      coalesce(length(content), 0) as bytes from report_job_runs where job_id = $1 order by id desc`, [id]);
    return { items: rows.map((r) => ({ id: Number(r.id), ranAt: iso(r.ran_at), from: r.period_from, to: r.period_to, rows: Number(r.rows), ok: !!r.ok, status: r.status, bytes: Number(r.bytes) })) };
  });
  app.get(`${reportJobsResource.api}/:id/runs/:runId/file`, { config }, async (req, reply) => {
    const id = await visibleJob(db, req);
    const runId = idParam(req, 'Report', 'runId');
    const { rows } = await db.query<{ content: string | null; name: string; period_from: string; period_to: string }>(`select x.content, j.name, x.period_from::text as period_from, x.period_to::text as period_to
      from report_job_runs x join report_jobs j on j.id = x.job_id where x.id = $1 and x.job_id = $2`, [runId, id]);
    if (!rows[0] || rows[0].content === null) throw new HttpError(404, 'Report not found');
    const file = `${rows[0].name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)}-${rows[0].period_from}-${rows[0].period_to}.csv`;
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file}"`).header('cache-control', 'no-store').send(rows[0].content);
  });
}
