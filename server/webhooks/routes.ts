// The web hook histories [0.3.4.7]: every attempt of every delivery of one hook of the selected client, newest
// first, filtered by outcome and event type. Another client's hook is "not found".
import type { FastifyInstance } from 'fastify';
import { PRIV, WebHookAttemptQuery, webHooksResource, type WebHookAttemptPage } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, clientOf, idParam, query } from '../http/kit';
import { iso } from '../db/values';
import { tenant } from '../db/tenant';

export const webHookAttemptsPath = `${webHooksResource.api}/:id/attempts`;

export function webHookRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(webHookAttemptsPath, { config: { privileges: [PRIV.webHooks.histories] } }, async (req): Promise<WebHookAttemptPage> => {
    const clientId = clientOf(req);
    const id = idParam(req, 'Web hook');
    const q = query(req.query, WebHookAttemptQuery, ['page', 'size']);
    const hookParams: unknown[] = [id];
    const hook = await db.query(`select 1 from web_hooks where id = $1 and ${tenant(hookParams, clientId)}`, hookParams);
    if (!hook.rows.length) throw new HttpError(404, 'Web hook not found');
    const params: unknown[] = [id];
    let where = `a.hook_id = $1 and ${tenant(params, clientId, 'a')}`;
    if (q.outcome) where += ` and a.ok = ${q.outcome === 'ok' ? 'true' : 'false'}`;
    if (q.eventType) {
      params.push(q.eventType);
      where += ` and a.event_type = $${params.length}`;
    }
    const page = q.page ?? 0,
      size = q.size ?? 50;
    const { rows } = await db.query<any>(
      `select a.*, o.state from webhook_attempts a join webhook_outbox o on o.id = a.outbox_id
      where ${where} order by a.id desc limit ${size} offset ${page * size}`,
      params,
    );
    const total = await db.query<{ n: string }>(`select count(*)::text n from webhook_attempts a where ${where}`, params);
    return {
      items: rows.map((r) => ({
        id: Number(r.id),
        deliveryId: Number(r.outbox_id),
        eventType: r.event_type,
        attempt: r.attempt,
        status: r.status ?? null,
        ok: r.ok,
        latencyMs: r.latency_ms,
        error: r.error ?? null,
        response: r.response ?? null,
        at: iso(r.at)!,
        deliveryState: r.state,
      })),
      total: Number(total.rows[0].n),
      page,
      size,
    };
  });
}
