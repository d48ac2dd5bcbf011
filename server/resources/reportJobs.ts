// Scheduled report jobs (contract/resources/reportJobs.ts) on the server: when a job runs next (in its client's zone),
// what a run makes (a CSV or XLSX of the period just past, as its owner may see it, written streamed and cut at the
// row cap), where it goes (mail through SMTP_URL with nodemailer, the client's web hook through the web hooks' outbox,
// always kept for download for the job's keepDays), the runner that makes the due ones each minute (one run per due
// time on a shared database), Run now, Retry of a failed run, and the job's history. A report shows what the job's owner (who added it) may see:
// their divisions for the family's view code; an owner who no longer holds that code gets a failed run saying so.
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import nodemailer from 'nodemailer';
import { PRIV, familyOf, mayOnRow, type ReportJobKind } from '../../contract';
import {
  REPORT_JOB_MAX_ROWS,
  reportJobsResource,
  reportRecipients,
  type ReportJobDelivery,
  type ReportJobFormat,
  type ReportJobRun,
  type ReportJobRuns,
} from '../../contract/resources/reportJobs';
import { privilegeEntries } from '../auth/access';
import { clientDivisionIds, eventDivisions } from '../auth/eventScope';
import type { ResourceHooks } from '../crud/hooks';
import type { Db } from '../db/db';
import { attendanceClock, attendanceDays, summarise } from '../db/queries/attendance';
import { HttpError, clientOf, divisionsFor, fill, idParam, iso, principal } from '../http/common';
import { TABULAR_TYPES, tableStream, type Column } from '../http/tabular';
import { HANDOVER_COLUMNS, fullDigest, handoverLines, shiftsEndingIn } from '../http/handover';
import { tenant } from '../db/tenant';

interface Job {
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

/** The next time the schedule comes round after now, in the client's zone (SQL; null when the job is off). */
export async function nextRunAt(
  db: Db,
  clientId: number,
  j: { frequency: string; hour: number; weekday: string; monthDay: number; enabled: boolean },
): Promise<string | null> {
  if (!j.enabled) return null;
  const { rows } = await db.query<{ at: unknown }>(
    `
    with z as (select timezone as tz, now() at time zone timezone as n from clients where id = $1),
    c as (select tz, n, case $2::text
        when 'daily' then date_trunc('day', n) + $3::int * interval '1 hour'
        when 'weekly' then date_trunc('day', n) + ((($4::int - extract(dow from n)::int) + 7) % 7) * interval '1 day' + $3::int * interval '1 hour'
        else date_trunc('month', n) + ($5::int - 1) * interval '1 day' + $3::int * interval '1 hour' end as at from z)
    select (case when at > n then at else at + case $2::text when 'daily' then interval '1 day' when 'weekly' then interval '7 days' else interval '1 month' end end) at time zone tz as at from c`,
    [clientId, j.frequency, j.hour, Number(j.weekday), j.monthDay],
  );
  return iso(rows[0]?.at) ?? null;
}

/** The period a run due at `at` covers, as local days 'YYYY-MM-DD' (daily: the day before; weekly: the 7 days before; monthly: the month before). */
async function periodOf(db: Db, clientId: number, frequency: string, at: string | null = null): Promise<{ from: string; to: string; zone: string }> {
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

export interface ReportJobOptions {
  /** The SMTP server reports are mailed through (SMTP_URL, e.g. smtps://user:pass@mail.example.com); none: nothing is mailed. */
  smtpUrl?: string | null;
  /** The sender of the mails (SMTP_FROM). */
  mailFrom?: string;
  /** Rows in one report at most (REPORT_JOB_MAX_ROWS by default). */
  maxRows?: number;
  log?: (m: string) => void;
}
/** The options the environment gives: SMTP_URL and SMTP_FROM, read when a report is made (so each run sees the configuration). */
export function reportJobEnv(o: ReportJobOptions = {}): Required<Omit<ReportJobOptions, 'log'>> & Pick<ReportJobOptions, 'log'> {
  return {
    smtpUrl: o.smtpUrl !== undefined ? o.smtpUrl : process.env.SMTP_URL?.trim() || null,
    mailFrom: o.mailFrom ?? (process.env.SMTP_FROM?.trim() || 'Gatehouse reports <gatehouse@localhost>'),
    maxRows: o.maxRows ?? REPORT_JOB_MAX_ROWS,
    log: o.log,
  };
}

type Cell = unknown;
/** A report's columns (`time`: instants, shown in the client's zone with the zone in the header) and its rows. */
interface Source {
  columns: Column[];
  rows: AsyncIterable<Cell[]>;
}
const cols = (names: string[], times: string[] = []): Column[] => names.map((title) => ({ title, time: times.includes(title) }));
const BATCH = 2000;

/** Rows of a keyset-paged query, BATCH at a time (never the whole report in memory): `page(after)` answers the next batch. */
async function* paged<R>(page: (after: R | null) => Promise<R[]>, cells: (r: R) => Cell[]): AsyncIterable<Cell[]> {
  let after: R | null = null;
  for (;;) {
    const batch = await page(after);
    for (const r of batch) yield cells(r);
    if (batch.length < BATCH) return;
    after = batch[batch.length - 1];
  }
}

/** What a report is made of, for its owner's view of the period (their divisions for the family's codes). */
async function sourceOf(db: Db, job: Job, period: { from: string; to: string; zone: string }): Promise<Source> {
  const owner = job.created_by === null ? [] : await privilegeEntries(db, job.created_by, job.client_id);
  const holds = (code: string) => owner.some((e) => e.privilegeIds.includes(code));
  const view = familyOf(reportJobsResource, job.report)!.view; // the declaration's family of this report
  if (!holds(view)) throw new HttpError(409, fill('Its owner no longer holds privilege {code} in this client: nothing was made', { code: view }));
  const bounds = [`($2::date::timestamp at time zone $4::text)`, `(($3::date + 1)::timestamp at time zone $4::text)`];
  const p = [job.client_id, period.from, period.to, period.zone];
  type R = Record<string, unknown>;
  switch (job.report) {
    case 'events': {
      const divisions = await eventDivisions({ clientId: job.client_id, entries: owner, divisionIds: (c) => clientDivisionIds(db, c) }, [
        PRIV.events.view,
        PRIV.eventReport,
      ]);
      return {
        columns: cols(['id', 'time', 'eventCode', 'eventSourceName', 'eventPointName', 'message', 'alert', 'priority'], ['time']),
        rows: paged<R>(
          async (after) =>
            (
              await db.query<R>(
                `select e.id, e.at, e.event_code, e.event_source_name, e.event_point_name, e.message, e.alert, e.priority from events e
          where e.client_id = $1 and e.at >= ${bounds[0]} and e.at < ${bounds[1]} and ($5::int[] is null or e.division_id is null or e.division_id = any($5::int[]))
          and e.id > $6 order by e.id limit ${BATCH}`,
                [...p, divisions, after?.id ?? 0],
              )
            ).rows,
          (r) => [Number(r.id), iso(r.at), r.event_code, r.event_source_name, r.event_point_name, r.message, r.alert, r.priority],
        ),
      };
    }
    case 'activity':
      return {
        columns: cols(['time', 'actor', 'action', 'entity', 'entityId'], ['time']),
        rows: paged<R>(
          async (after) =>
            (
              await db.query<R>(
                `select id, at, actor, action, entity, entity_id from audit_log
          where client_id = $1 and at >= ${bounds[0]} and at < ${bounds[1]} and id > $5 order by id limit ${BATCH}`,
                [...p, after?.id ?? 0],
              )
            ).rows,
          (r) => [iso(r.at), r.actor, r.action, r.entity, r.entity_id],
        ),
      };
    case 'identities': {
      const divisions = divisionsFor({ entries: owner }, [PRIV.identityReport, PRIV.identities.view]);
      return {
        columns: cols(['employeeNo', 'lastName', 'firstName', 'division', 'status', 'validFrom', 'validTo']),
        rows: paged<R>(
          async (after) =>
            (
              await db.query<R>(
                `select i.id, i.employee_no, i.last_name, i.first_name, coalesce(i.last_name, '') as k1, coalesce(i.first_name, '') as k2,
            d.name as division, i.status, i.valid_from::text as valid_from, i.valid_to::text as valid_to
          from identities i join divisions d on d.id = i.division_id where i.client_id = $1 and i.division_id = any($2::int[])
          and ($3::int is null or (coalesce(i.last_name, ''), coalesce(i.first_name, ''), i.id) > ($4::text, $5::text, $3::int))
          order by coalesce(i.last_name, ''), coalesce(i.first_name, ''), i.id limit ${BATCH}`,
                [job.client_id, divisions, after?.id ?? null, after?.k1 ?? '', after?.k2 ?? ''],
              )
            ).rows,
          (r) => [r.employee_no, r.last_name, r.first_name, r.division, r.status, r.valid_from, r.valid_to],
        ),
      };
    }
    case 'shift-handover': {
      // issue 31: each shift that ended in the period, as its owner may see it (the handover's code and divisions)
      if (!holds(PRIV.handover.view))
        throw new HttpError(409, fill('Its owner no longer holds privilege {code} in this client: nothing was made', { code: PRIV.handover.view }));
      const divisions = await eventDivisions({ clientId: job.client_id, entries: owner, divisionIds: (c) => clientDivisionIds(db, c) }, [PRIV.handover.view]);
      const {
        rows: [b],
      } = await db.query<{ s: Date; e: Date }>(`select $1::int as c, ${bounds[0]} as s, ${bounds[1]} as e`, p);
      const shifts = await shiftsEndingIn(db, job.client_id, new Date(b.s), new Date(b.e));
      async function* lines() {
        for (const shift of shifts) yield* handoverLines(await fullDigest(db, job.client_id, shift, divisions));
      }
      return { columns: cols([...HANDOVER_COLUMNS], ['shiftStart', 'shiftEnd', 'since']), rows: lines() };
    }
    case 'daily-attendance':
    case 'attendance-summary': {
      // the attendance engine works out a period's days as a whole (bounded by the team and the period)
      const code = job.report === 'daily-attendance' ? PRIV.dailyAttendance : PRIV.attendanceSummaries;
      const divisions = divisionsFor({ entries: owner }, [code, PRIV.attendanceReportJobs.view]);
      const clock = await attendanceClock(db, job.client_id);
      const days = await attendanceDays(db, job.client_id, { from: period.from, to: period.to }, divisions, clock);
      async function* of(rows: Cell[][]) {
        yield* rows;
      }
      if (job.report === 'daily-attendance') {
        return {
          columns: cols(
            ['day', 'team', 'employeeNo', 'name', 'status', 'shiftStart', 'firstIn', 'lastOut', 'workedMinutes', 'lateMinutes', 'leave'],
            ['firstIn', 'lastOut'],
          ),
          rows: of(
            [...days].flatMap(([day, list]) =>
              list.map((r) => [day, r.team, r.employeeNo, r.name, r.status, r.shiftStart, r.firstIn, r.lastOut, r.workedMinutes, r.lateMinutes, r.leave]),
            ),
          ),
        };
      }
      return {
        columns: cols(['team', 'employeeNo', 'name', 'scheduledDays', 'presentDays', 'lateDays', 'absentDays', 'leaveDays', 'workedMinutes', 'lateMinutes']),
        rows: of(
          summarise(days).map((r) => [
            r.team,
            r.employeeNo,
            r.name,
            r.scheduledDays,
            r.presentDays,
            r.lateDays,
            r.absentDays,
            r.leaveDays,
            r.workedMinutes,
            r.lateMinutes,
          ]),
        ),
      };
    }
  }
}

interface Made {
  file: Buffer;
  rows: number;
  cut: boolean;
}

/**
 * A report's file, written row by row into a temporary file by the shared writer (server/http/tabular.ts: CSV with a
 * byte-order mark, or XLSX through exceljs' streaming WorkbookWriter; times in the client's zone, named in the header),
 * stopped at `maxRows` (`cut`). Only the finished file is read back.
 */
async function writeReport(
  source: Source,
  format: ReportJobFormat,
  maxRows: number,
  about: { name: string; from: string; to: string; zone: string },
): Promise<Made> {
  const dir = await mkdtemp(join(tmpdir(), 'gh-report-'));
  const path = join(dir, `report.${format}`);
  let rows = 0,
    cut = false;
  async function* bounded(): AsyncIterable<Cell[]> {
    for await (const r of source.rows) {
      if (rows >= maxRows) {
        cut = true;
        return;
      }
      rows++;
      yield r;
    }
  }
  try {
    const aboutSheet = () => [
      ['Job', about.name],
      ['From', about.from],
      ['To', about.to],
      ['Time zone', about.zone],
      ['Rows', rows],
      ['Cut at the row cap', cut ? `yes, at ${maxRows}` : 'no'],
    ];
    await pipeline(
      tableStream(format, { columns: source.columns, zone: about.zone, rows: bounded() }, { sheet: 'Report', about: aboutSheet }),
      createWriteStream(path),
    );
    return { file: await readFile(path), rows, cut };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const fileName = (name: string, from: string, to: string, format: string) => `${name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)}-${from}-${to}.${format}`;
export const REPORT_CONTENT_TYPES: Record<string, string> = TABULAR_TYPES;
/** A web hook's report.made delivery carries the file itself up to this size (base64); a larger one only its download path. */
export const WEBHOOK_FILE_MAX_BYTES = 1024 * 1024;

/** Mails the report to `to` through `smtpUrl`; answers the addresses the server accepted. */
async function mail(o: {
  smtpUrl: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  file: { name: string; type: string; content: Buffer };
}): Promise<string[]> {
  const transport = nodemailer.createTransport(o.smtpUrl, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as never);
  try {
    const info = await transport.sendMail({
      from: o.from,
      to: o.to,
      subject: o.subject,
      text: o.text,
      attachments: [{ filename: o.file.name, contentType: o.file.type, content: o.file.content }],
    });
    const accepted = ((info.accepted ?? []) as Array<string | { address: string }>).map((a) => (typeof a === 'string' ? a : a.address));
    const rejected = ((info.rejected ?? []) as Array<string | { address: string }>).map((a) => (typeof a === 'string' ? a : a.address));
    if (rejected.length) throw new Error(`the mail server refused ${rejected.join(', ')}`);
    return accepted;
  } catch (e) {
    // every recipient refused: say which, and the server's answer
    const err = e as Error & { rejected?: Array<string | { address: string }>; response?: string };
    if (err.rejected?.length)
      throw new Error(
        `the mail server refused ${err.rejected.map((a) => (typeof a === 'string' ? a : a.address)).join(', ')}${err.response ? ` (${err.response})` : ''}`,
        { cause: e },
      );
    throw e;
  } finally {
    transport.close();
  }
}

/**
 * Makes run `runId` of `job` (its row already claimed) with `db`: the report of `period`, kept for download, mailed to
 * the job's recipients and queued for its web hook; the run row says how it went (`ok` false: nothing was made, or a
 * delivery failed — Retry makes it again). The oldest runs beyond keep_runs go; files past keep_days are dropped.
 */
export async function makeRun(
  db: Db,
  job: Job,
  runId: number,
  period: { from: string; to: string; zone: string },
  options: ReportJobOptions = {},
): Promise<{ ok: boolean; status: string }> {
  const o = reportJobEnv(options);
  let made: Made | null = null,
    failure: string | null = null;
  const notes: string[] = [];
  let mailedTo: string[] | null = null,
    mailError: string | null = null,
    outboxId: string | null = null;
  try {
    made = await writeReport(await sourceOf(db, job, period), job.format, o.maxRows, { name: job.name, ...period });
  } catch (e) {
    failure = (e as Error).message;
  }
  const name = fileName(job.name, period.from, period.to, job.format);
  if (made) {
    const { addresses } = reportRecipients(job.recipients);
    if (addresses.length && !o.smtpUrl) notes.push('not mailed: e-mail is not configured on this server');
    else if (addresses.length) {
      try {
        mailedTo = await mail({
          smtpUrl: o.smtpUrl!,
          from: o.mailFrom,
          to: addresses,
          subject: `${job.name}: ${period.from === period.to ? period.from : `${period.from} to ${period.to}`}`,
          text: `${job.name}\n${made.rows} rows, ${period.from} to ${period.to}${made.cut ? ` (cut at ${o.maxRows} rows)` : ''}.\nThe report is attached (${job.format.toUpperCase()}).\n`,
          file: { name, type: REPORT_CONTENT_TYPES[job.format], content: made.file },
        });
        notes.push(`mailed to ${mailedTo.length}`);
      } catch (e) {
        mailError = `${(e as Error).message}`.slice(0, 500);
        notes.push(`mail failed: ${mailError}`);
      }
    }
    if (job.web_hook_id !== null) {
      // the web hooks' own outbox: the worker signs, sends, retries and keeps every attempt (server/webhooks/worker.ts)
      const body = {
        type: 'report.made',
        clientId: job.client_id,
        occurredAt: new Date().toISOString(),
        job: { id: job.id, name: job.name, report: job.report, format: job.format },
        run: { id: runId, from: period.from, to: period.to, rows: made.rows, cut: made.cut, bytes: made.file.length },
        file: {
          name,
          contentType: REPORT_CONTENT_TYPES[job.format],
          download: `${reportJobsResource.api}/${job.id}/runs/${runId}/file`,
          base64: made.file.length <= WEBHOOK_FILE_MAX_BYTES ? made.file.toString('base64') : null,
        },
      };
      const { rows } = await db.query<{ id: string; name: string }>(
        `insert into webhook_outbox (client_id, hook_id, event_type, body)
        select client_id, id, 'report.made', $3::jsonb from web_hooks where id = $1 and client_id = $2 returning id::text, (select name from web_hooks where id = $1) as name`,
        [job.web_hook_id, job.client_id, JSON.stringify(body)],
      );
      outboxId = rows[0]?.id ?? null;
      if (rows[0]) notes.push(`sent to web hook ${rows[0].name}`);
    }
  }
  const ok = made !== null && mailError === null;
  const status = (
    made
      ? `${made.rows} rows, ${period.from} to ${period.to}${made.cut ? ` (cut at ${o.maxRows})` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}`
      : `Failed: ${failure}`
  ).slice(0, 500);
  await db.query(
    `update report_job_runs set ran_at = now(), rows = $2, ok = $3, status = $4, file = $5, content = null, bytes = $6, cut = $7, format = $8,
      mailed_to = $9, mail_error = $10, webhook_outbox_id = $11::bigint, expired = false where id = $1`,
    [
      runId,
      made?.rows ?? 0,
      ok,
      status,
      made ? made.file : null,
      made?.file.length ?? 0,
      made?.cut ?? false,
      job.format,
      mailedTo?.join(', ') ?? null,
      mailError,
      outboxId,
    ],
  );
  await db.query(`delete from report_job_runs where job_id = $1 and id not in (select id from report_job_runs where job_id = $1 order by id desc limit $2)`, [
    job.id,
    job.keep_runs,
  ]);
  await db.query('update report_jobs set last_run_at = now(), last_status = $2 where id = $1', [job.id, status]);
  return { ok, status };
}

/** A new run row of `job` (for the schedule's `dueAt`, or null: Run now); null when that due time already has its run. */
async function claimRun(db: Db, job: Job, period: { from: string; to: string }, dueAt: string | null): Promise<number | null> {
  const { rows } = await db.query<{ id: number }>(
    `insert into report_job_runs (job_id, client_id, period_from, period_to, ok, status, format, due_at)
    values ($1, $2, $3::date, $4::date, false, 'Being made', $5, $6::timestamptz) on conflict (job_id, due_at) do nothing returning id`,
    [job.id, job.client_id, period.from, period.to, job.format, dueAt],
  );
  return rows[0] ? Number(rows[0].id) : null;
}

/** One run of a job now (Run now, inside `tx`): the period just past, made and delivered at once. */
export async function runJob(tx: Db, job: Job, options: ReportJobOptions = {}): Promise<{ ok: boolean; status: string }> {
  const period = await periodOf(tx, job.client_id, job.frequency);
  const runId = (await claimRun(tx, job, period, null))!;
  return makeRun(tx, job, runId, period, options);
}

const JOB_COLUMNS =
  'id, client_id, name, report, frequency, hour, weekday, month_day, keep_runs, keep_days, enabled, created_by, format, recipients, web_hook_id, next_run_at';

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

async function loadJob(db: Db, id: number): Promise<Job> {
  const { rows } = await db.query<Job>(`select ${JOB_COLUMNS} from report_jobs where id = $1`, [id]);
  return rows[0];
}

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

/** The job `id` of the request's client, when its family's `action` code is held (404 otherwise: another family's or tenant's). */
async function visibleJob(db: Db, req: FastifyRequest, action: 'view' | 'edit' = 'view'): Promise<number> {
  const id = idParam(req, 'Scheduled report job');
  const params: unknown[] = [id];
  const { rows } = await db.query<{ report: ReportJobKind }>(`select report from report_jobs where id = $1 and ${tenant(params, clientOf(req))}`, params);
  const held = principal(req).entries.flatMap((e) => e.privilegeIds);
  if (!rows[0] || !mayOnRow(reportJobsResource, 'view', held, rows[0]))
    throw new HttpError(404, fill('{what} not found', { what: reportJobsResource.label.one }));
  if (action === 'edit' && !mayOnRow(reportJobsResource, 'edit', held, rows[0]))
    throw new HttpError(403, fill('Needs privilege {code}', { code: familyOf(reportJobsResource, rows[0].report)!.edit! }));
  return id;
}

/** What this server delivers by: e-mail only when SMTP_URL is set (the job's page says so). */
export function reportJobDelivery(options: ReportJobOptions = {}): ReportJobDelivery {
  const o = reportJobEnv(options);
  return { email: !!o.smtpUrl, ...(o.smtpUrl ? { from: o.mailFrom } : {}), maxRows: o.maxRows };
}

const asRun = (r: Record<string, unknown>): ReportJobRun => ({
  id: Number(r.id),
  ranAt: iso(r.ran_at)!,
  from: String(r.period_from),
  to: String(r.period_to),
  dueAt: iso(r.due_at),
  rows: Number(r.rows),
  ok: !!r.ok,
  status: String(r.status),
  bytes: Number(r.bytes),
  format: String(r.format),
  cut: !!r.cut,
  file: !!r.has_file,
  mailedTo: r.mailed_to ? String(r.mailed_to).split(', ') : null,
  mailError: (r.mail_error as string | null) ?? null,
  webHook: r.hook_name ? { name: String(r.hook_name), state: String(r.hook_state ?? 'gone'), error: (r.hook_error as string | null) ?? null } : null,
  attempts: Number(r.attempts),
});
const RUN_COLUMNS = `x.id, x.ran_at, x.due_at, x.period_from::text as period_from, x.period_to::text as period_to, x.rows, x.ok, x.status, x.bytes, x.format, x.cut,
  (x.file is not null or x.content is not null) as has_file, x.mailed_to, x.mail_error, x.attempts, h.name as hook_name, o.state as hook_state,
  (select a.error from webhook_attempts a where a.outbox_id = o.id order by a.id desc limit 1) as hook_error
  from report_job_runs x left join webhook_outbox o on o.id = x.webhook_outbox_id left join web_hooks h on h.id = o.hook_id`;

/**
 * A job's runs: `GET …/:id/runs` its history (newest first) with how this server delivers, `GET …/:id/runs/:runId/file`
 * one report's file, `POST …/:id/runs/:runId/retry` makes a failed run again (its period) and delivers it;
 * `GET …/delivery` whether e-mail is configured.
 */
export function reportJobRoutes(app: FastifyInstance, { db, options = {} }: { db: Db; options?: ReportJobOptions }) {
  const config = { privileges: [PRIV.reportJobs.view, PRIV.attendanceReportJobs.view] };
  const change = { privileges: [PRIV.reportJobs.edit, PRIV.attendanceReportJobs.edit], touches: 'client' as const };
  app.get(`${reportJobsResource.api}/delivery`, { config }, async () => reportJobDelivery(options));
  app.get(`${reportJobsResource.api}/:id/runs`, { config }, async (req): Promise<ReportJobRuns> => {
    const id = await visibleJob(db, req);
    const { rows } = await db.query<Record<string, unknown>>(`select ${RUN_COLUMNS} where x.job_id = $1 order by x.id desc`, [id]);
    return { items: rows.map(asRun), delivery: reportJobDelivery(options) };
  });
  app.post(`${reportJobsResource.api}/:id/runs/:runId/retry`, { config: change }, async (req): Promise<ReportJobRun> => {
    const id = await visibleJob(db, req, 'edit');
    const runId = idParam(req, 'Report', 'runId');
    await db.transaction(async (tx) => {
      const {
        rows: [run],
      } = await tx.query<{ ok: boolean; period_from: string; period_to: string; zone: string }>(
        `select x.ok, x.period_from::text as period_from, x.period_to::text as period_to, c.timezone as zone
        from report_job_runs x join clients c on c.id = x.client_id where x.id = $1 and x.job_id = $2 for update of x`,
        [runId, id],
      );
      if (!run) throw new HttpError(404, 'Report not found');
      if (run.ok) throw new HttpError(409, 'This run did not fail: there is nothing to retry', [{ field: 'runId', message: 'did not fail' }]);
      await tx.query('update report_job_runs set attempts = attempts + 1 where id = $1', [runId]);
      await makeRun(tx, await loadJob(tx, id), runId, { from: run.period_from, to: run.period_to, zone: run.zone }, options);
    });
    const { rows } = await db.query<Record<string, unknown>>(`select ${RUN_COLUMNS} where x.id = $1`, [runId]);
    if (!rows[0]) throw new HttpError(404, 'Report not found'); // more runs than the job keeps were made meanwhile
    return asRun(rows[0]);
  });
  app.get(`${reportJobsResource.api}/:id/runs/:runId/file`, { config }, async (req, reply) => {
    const id = await visibleJob(db, req);
    const runId = idParam(req, 'Report', 'runId');
    const { rows } = await db.query<{ file: Uint8Array | null; content: string | null; format: string; name: string; period_from: string; period_to: string }>(
      `select x.file, x.content, x.format, j.name,
      x.period_from::text as period_from, x.period_to::text as period_to from report_job_runs x join report_jobs j on j.id = x.job_id where x.id = $1 and x.job_id = $2`,
      [runId, id],
    );
    const r = rows[0];
    if (!r || (r.file === null && r.content === null)) throw new HttpError(404, 'Report not found');
    const body = r.file !== null ? Buffer.from(r.file) : Buffer.from(r.content!, 'utf8');
    return reply
      .header('content-type', REPORT_CONTENT_TYPES[r.format] ?? 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${fileName(r.name, r.period_from, r.period_to, r.format)}"`)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
