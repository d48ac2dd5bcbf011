// A scheduled report job's runs over HTTP (server/reports/index.ts): its history, one report's file, Retry of a
// failed run, and how this server delivers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PRIV, familyOf, mayOnRow, type ReportJobKind } from '../../contract';
import { reportJobsResource, type ReportJobRun, type ReportJobRuns } from '../../contract/resources/reportJobs';
import type { Db } from '../db/db';
import { countReportRunAttempt, lockReportRunForRetry, reportJobKindOf, reportJobRunRow, reportJobRunRows, reportRunFile } from '../db/queries/reportJobs';
import { HttpError, clientOf, fill, idParam, principal } from '../http/kit';
import { iso } from '../db/values';
import { loadJob } from './clock';
import { REPORT_CONTENT_TYPES, fileName, makeRun, reportJobDelivery, type ReportJobOptions } from './runs';

/** The job `id` of the request's client, when its family's `action` code is held (404 otherwise: another family's or tenant's). */
async function visibleJob(db: Db, req: FastifyRequest, action: 'view' | 'edit' = 'view'): Promise<number> {
  const id = idParam(req, 'Scheduled report job');
  const job: { report: ReportJobKind } | undefined = await reportJobKindOf(db, clientOf(req), id);
  const held = principal(req).entries.flatMap((e) => e.privilegeIds);
  if (!job || !mayOnRow(reportJobsResource, 'view', held, job))
    throw new HttpError(404, fill('record.notFound', '{what} not found', { what: reportJobsResource.label.one }));
  if (action === 'edit' && !mayOnRow(reportJobsResource, 'edit', held, job))
    throw new HttpError(403, fill('privilege.needed', 'Needs privilege {code}', { code: familyOf(reportJobsResource, job.report)!.edit! }));
  return id;
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
    return { items: (await reportJobRunRows(db, id)).map(asRun), delivery: reportJobDelivery(options) };
  });
  app.post(`${reportJobsResource.api}/:id/runs/:runId/retry`, { config: change }, async (req): Promise<ReportJobRun> => {
    const id = await visibleJob(db, req, 'edit');
    const runId = idParam(req, 'Report', 'runId');
    await db.transaction(async (tx) => {
      const run = await lockReportRunForRetry(tx, runId, id);
      if (!run) throw new HttpError(404, fill('report.notFound', 'Report not found', {}));
      if (run.ok)
        throw new HttpError(409, fill('reportRun.notFailed', 'This run did not fail: there is nothing to retry', {}), [
          { field: 'runId', ...fill('reportRun.didNotFail', 'did not fail', {}) },
        ]);
      await countReportRunAttempt(tx, runId);
      await makeRun(tx, await loadJob(tx, id), runId, { from: run.period_from, to: run.period_to, zone: run.zone }, options);
    });
    const row = await reportJobRunRow(db, runId);
    if (!row) throw new HttpError(404, fill('report.notFound', 'Report not found', {})); // more runs than the job keeps were made meanwhile
    return asRun(row);
  });
  app.get(`${reportJobsResource.api}/:id/runs/:runId/file`, { config }, async (req, reply) => {
    const id = await visibleJob(db, req);
    const runId = idParam(req, 'Report', 'runId');
    const r = await reportRunFile(db, runId, id);
    if (!r || (r.file === null && r.content === null)) throw new HttpError(404, fill('report.notFound', 'Report not found', {}));
    const body = r.file !== null ? Buffer.from(r.file) : Buffer.from(r.content!, 'utf8');
    return reply
      .header('content-type', REPORT_CONTENT_TYPES[r.format] ?? 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${fileName(r.name, r.period_from, r.period_to, r.format)}"`)
      .header('cache-control', 'no-store')
      .send(body);
  });
}
