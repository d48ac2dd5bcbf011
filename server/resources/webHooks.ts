// Web hooks on the server, beyond the declaration: the target must be an http(s) URL that parses (the declared
// pattern is the form's first check), and `POST …/:id/redeliver` {deliveryId} sends one of the hook's deliveries
// again now (the worker picks it up within its poll interval), audited.
import { PRIV, RedeliverRequest } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { HttpError, body } from '../http/common';
import { targetProblem } from '../webhooks/targets';

function urlProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  let u: URL;
  try { u = new URL(raw); } catch { return 'is not a valid URL'; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must start with http:// or https://';
  if (u.username || u.password) return 'must not carry a user name or password';
  return null;
}

/** `allowPrivate`: the installation lets hooks call this machine or the site network (WEBHOOK_PRIVATE_TARGETS). */
export const webHookHooks = (allowPrivate = false): ResourceHooks => ({
  async validate(_ctx, input) {
    const problem = urlProblem(input.url) ?? (typeof input.url === 'string' ? await targetProblem(input.url, allowPrivate) : null);
    return problem ? [{ field: 'url', message: problem }] : [];
  },
  actions: {
    redeliver: {
      privilege: PRIV.webHooks.edit,
      async run(ctx, before) {
        const { deliveryId } = body(ctx.req.body, RedeliverRequest);
        const { rows } = await ctx.tx.query(`update webhook_outbox set state = 'pending', next_at = now(), delivered_at = null
          where id = $1 and hook_id = $2 and client_id = $3 returning id`, [deliveryId, before.id, ctx.clientId]);
        if (!rows.length) throw new HttpError(404, 'Delivery not found', [{ field: 'deliveryId', message: 'is not a delivery of this web hook' }]);
        ctx.req.oneTime = { deliveryId };
      },
      audit: () => ({ before: null, after: { redelivered: true } }),
    },
  },
});
