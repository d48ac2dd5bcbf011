// The web hook histories [0.3.4.7]: every attempt of every delivery of one hook of the selected client, newest
// first, filtered by outcome and event type. Another client's hook is "not found".
import type { FastifyInstance } from 'fastify';
import { PRIV, WebHookAttemptQuery, webHooksResource, type WebHookAttemptPage } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, clientOf, idParam, query, fill } from '../http/kit';
import { iso } from '../db/values';
import { webhookAttemptPage, webhookInClient } from '../db/queries/webhooks';

export const webHookAttemptsPath = `${webHooksResource.api}/:id/attempts`;

export function webHookRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(webHookAttemptsPath, { config: { privileges: [PRIV.webHooks.histories] } }, async (req): Promise<WebHookAttemptPage> => {
    const clientId = clientOf(req);
    const id = idParam(req, 'Web hook');
    const q = query(req.query, WebHookAttemptQuery, ['page', 'size']);
    if (!(await webhookInClient(db, clientId, id))) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Web hook' }));
    const page = q.page ?? 0,
      size = q.size ?? 50;
    const { rows, total } = await webhookAttemptPage(db, clientId, id, q, page, size);
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
      total,
      page,
      size,
    };
  });
}
