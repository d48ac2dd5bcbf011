// One run of a scheduled report job (server/reports/index.ts): the file it makes (CSV or XLSX, written
// streamed and cut at the row cap), where it goes (mail through SMTP_URL with nodemailer, the client's web hook through
// the web hooks' outbox, always kept for download for the job's keepDays) and the run row that says how it went.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { REPORT_JOB_MAX_ROWS, reportJobsResource, reportRecipients, type ReportJobDelivery, type ReportJobFormat } from '../../contract/resources/reportJobs';
import type { Db } from '../db/db';
import { claimReportRun, finishReportRun, noteReportJobRan, queueReportDelivery, trimReportRuns } from '../db/queries/reportJobs';
import { pipedToFile } from '../streams';
import { TABULAR_TYPES, tableStream } from '../http/tabular';
import { periodOf, type Job } from './clock';
import { sourceOf, type Cell, type Source } from './sources';

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
    await pipedToFile(path, 0o600, tableStream(format, { columns: source.columns, zone: about.zone, rows: bounded() }, { sheet: 'Report', about: aboutSheet }));
    return { file: await readFile(path), rows, cut };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const fileName = (name: string, from: string, to: string, format: string) =>
  `${name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)}-${from}-${to}.${format}`;
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
      const queued = await queueReportDelivery(db, job.client_id, job.web_hook_id, body);
      outboxId = queued?.id ?? null;
      if (queued) notes.push(`sent to web hook ${queued.name}`);
    }
  }
  const ok = made !== null && mailError === null;
  const status = (
    made
      ? `${made.rows} rows, ${period.from} to ${period.to}${made.cut ? ` (cut at ${o.maxRows})` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}`
      : `Failed: ${failure}`
  ).slice(0, 500);
  await finishReportRun(db, runId, {
    rows: made?.rows ?? 0,
    ok,
    status,
    file: made ? made.file : null,
    bytes: made?.file.length ?? 0,
    cut: made?.cut ?? false,
    format: job.format,
    mailedTo: mailedTo?.join(', ') ?? null,
    mailError,
    outboxId,
  });
  await trimReportRuns(db, job.id, job.keep_runs);
  await noteReportJobRan(db, job.id, status);
  return { ok, status };
}

/** A new run row of `job` (for the schedule's `dueAt`, or null: Run now); null when that due time already has its run. */
export const claimRun = claimReportRun;

/** One run of a job now (Run now, inside `tx`): the period just past, made and delivered at once. */
export async function runJob(tx: Db, job: Job, options: ReportJobOptions = {}): Promise<{ ok: boolean; status: string }> {
  const period = await periodOf(tx, job.client_id, job.frequency);
  const runId = (await claimRun(tx, job, period, null))!;
  return makeRun(tx, job, runId, period, options);
}

/** What this server delivers by: e-mail only when SMTP_URL is set (the job's page says so). */
export function reportJobDelivery(options: ReportJobOptions = {}): ReportJobDelivery {
  const o = reportJobEnv(options);
  return { email: !!o.smtpUrl, ...(o.smtpUrl ? { from: o.mailFrom } : {}), maxRows: o.maxRows };
}
