// Web hooks (server/resources/webHooks.ts, server/webhooks/; issue 48: their queries in the queries room).
import type { Db } from '../db';
import { tenant } from '../tenant';

/** Delivery `deliveryId` of hook `hookId` of the client sent again at once: false when it is not one of the hook's. */
export async function redeliverWebhook(db: Db, clientId: number | null, hookId: number, deliveryId: unknown): Promise<boolean> {
  const params: unknown[] = [deliveryId, hookId];
  const { rows } = await db.query(
    `update webhook_outbox set state = 'pending', next_at = now(), delivered_at = null
          where id = $1 and hook_id = $2 and ${tenant(params, clientId)} returning id`,
    params,
  );
  return rows.length > 0;
}

/** Whether web hook `id` is one of the client's. */
export async function webhookInClient(db: Db, clientId: number, id: number): Promise<boolean> {
  const hookParams: unknown[] = [id];
  const hook = await db.query(`select 1 from web_hooks where id = $1 and ${tenant(hookParams, clientId)}`, hookParams);
  return hook.rows.length > 0;
}

/**
 * A page of web hook `id`'s delivery attempts (newest first, each with its delivery's state) and how many there are,
 * by outcome ('ok', 'failed') and event type when given.
 */
export async function webhookAttemptPage(
  db: Db,
  clientId: number,
  id: number,
  q: { outcome?: string | null; eventType?: string | null },
  page: number,
  size: number,
): Promise<{ rows: any[]; total: number }> {
  const params: unknown[] = [id];
  let where = `a.hook_id = $1 and ${tenant(params, clientId, 'a')}`;
  if (q.outcome) where += ` and a.ok = ${q.outcome === 'ok' ? 'true' : 'false'}`;
  if (q.eventType) {
    params.push(q.eventType);
    where += ` and a.event_type = $${params.length}`;
  }
  const { rows } = await db.query<any>(
    `select a.*, o.state from webhook_attempts a join webhook_outbox o on o.id = a.outbox_id
      where ${where} order by a.id desc limit ${size} offset ${page * size}`,
    params,
  );
  const total = await db.query<{ n: string }>(`select count(*)::text n from webhook_attempts a where ${where}`, params);
  return { rows, total: Number(total.rows[0].n) };
}

/** A delivery due for sending, with its hook's address, secret and whether it is active. */
export interface DueDelivery {
  id: string;
  client_id: number;
  hook_id: number;
  event_type: string;
  body: unknown;
  attempts: number;
  url: string;
  secret: string;
  active: boolean;
}

/** Claims up to `batch` deliveries due now for `leaseS` seconds (another worker skips them meanwhile). */
export async function claimDueDeliveries(db: Db, batch: number, leaseS: number): Promise<DueDelivery[]> {
  const { rows } = await db.query<DueDelivery>(
    `with due as (
        select id from webhook_outbox where state = 'pending' and next_at <= now() order by next_at, id limit $1 for update skip locked)
      update webhook_outbox o set next_at = now() + $2::int * interval '1 second' from due, web_hooks h
       where o.id = due.id and h.id = o.hook_id
      returning o.id::text, o.client_id, o.hook_id, o.event_type, o.body, o.attempts, h.url, h.secret, h.active`,
    [batch, leaseS],
  );
  return rows;
}

/** Records attempt `a.attempt` of delivery `d` and the delivery's next state (delivered, failed, or pending again in `retryMs`). */
export async function recordDeliveryAttempt(
  db: Db,
  d: DueDelivery,
  a: { attempt: number; status: number | null; ok: boolean; latency: number; error: string | null; response: string | null; state: string; retryMs: number },
): Promise<void> {
  await db.query(
    `insert into webhook_attempts (client_id, hook_id, outbox_id, event_type, attempt, status, ok, latency_ms, error, response)
        values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
    [d.client_id, d.hook_id, d.id, d.event_type, a.attempt, a.status, a.ok, a.latency, a.error, a.response],
  );
  await db.query(
    `update webhook_outbox set attempts = $2, state = $3, delivered_at = case when $3 = 'delivered' then now() else null end,
          next_at = now() + $4::int * interval '1 millisecond' where id = $1`,
    [d.id, a.attempt, a.state, a.retryMs],
  );
}
