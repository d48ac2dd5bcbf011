// Web hooks on the server, beyond the declaration: the target must be an http(s) URL that parses (the declared
// pattern is the form's first check) and not the inside (server/webhooks/targets.ts: a literal address that is not
// public unicast, a name like localhost. or metadata.google.internal, or a name that resolves to such an address —
// asked of the resolver the web hook worker uses; the worker checks again when it connects), and
// `POST …/:id/redeliver` {deliveryId} sends one of the hook's deliveries again now (the worker picks it up within its
// poll interval), audited.
import { PRIV, RedeliverRequest } from '../../contract';
import type { ResourceHooks } from '../crud/hooks';
import { HttpError, body, fill } from '../http/kit';
import { systemResolve, targetProblem, type Resolve } from '../webhooks/targets';
import { redeliverWebhook } from '../db/queries/webhooks';

function urlProblem(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'must start with http:// or https://';
  if (u.username || u.password) return 'must not carry a user name or password';
  return null;
}

/** `allowPrivate`: the installation lets hooks call this machine or the site network (WEBHOOK_PRIVATE_TARGETS). */
export const webHookHooks = (allowPrivate = false): ResourceHooks => ({
  async validate(ctx, input) {
    // The server's web hook worker carries the resolver its deliveries use (tests give one); else the system's.
    const resolve = (ctx.req.server as unknown as { webhooks?: { resolve?: Resolve } | null }).webhooks?.resolve ?? systemResolve;
    const problem = urlProblem(input.url) ?? (typeof input.url === 'string' ? await targetProblem(input.url, allowPrivate, resolve) : null);
    return problem ? [{ field: 'url', message: problem }] : [];
  },
  actions: {
    redeliver: {
      privilege: PRIV.webHooks.edit,
      async run(ctx, before) {
        const { deliveryId } = body(ctx.req.body, RedeliverRequest);
        if (!(await redeliverWebhook(ctx.tx, ctx.clientId, before.id, deliveryId)))
          throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Delivery' }), [
            { field: 'deliveryId', ...fill('webHook.notItsDelivery', 'is not a delivery of this web hook', {}) },
          ]);
        ctx.req.oneTime = { deliveryId };
      },
      audit: () => ({ before: null, after: { redelivered: true } }),
    },
  },
});
