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
