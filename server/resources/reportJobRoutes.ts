// A scheduled report job's runs over HTTP (server/resources/reportJobs.ts): its history, one report's file, Retry of a
// failed run, and how this server delivers.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PRIV, familyOf, mayOnRow, type ReportJobKind } from '../../contract';
import { reportJobsResource, type ReportJobRun, type ReportJobRuns } from '../../contract/resources/reportJobs';
import type { Db } from '../db/db';
import { tenant } from '../db/tenant';
import { HttpError, clientOf, fill, idParam, principal } from '../http/kit';
import { iso } from '../db/values';
import { loadJob } from './reportJobClock';
import { REPORT_CONTENT_TYPES, fileName, makeRun, reportJobDelivery, type ReportJobOptions } from './reportJobRuns';

/** The job `id` of the request's client, when its family's `action` code is held (404 otherwise: another family's or tenant's). */
async function visibleJob(db: Db, req: FastifyRequest, action: 'view' | 'edit' = 'view'): Promise<number> {
  const id = idParam(req, 'Scheduled report job');
  const params: unknown[] = [id];
  const { rows } = await db.query<{ report: ReportJobKind }>(`select report from report_jobs where id = $1 and ${tenant(params, clientOf(req))}`, params);
  const held = principal(req).entries.flatMap((e) => e.privilegeIds);
  if (!rows[0] || !mayOnRow(reportJobsResource, 'view', held, rows[0]))
    throw new HttpError(404, fill('record.notFound', '{what} not found', { what: reportJobsResource.label.one }));
  if (action === 'edit' && !mayOnRow(reportJobsResource, 'edit', held, rows[0]))
    throw new HttpError(403, fill('privilege.needed', 'Needs privilege {code}', { code: familyOf(reportJobsResource, rows[0].report)!.edit! }));
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
