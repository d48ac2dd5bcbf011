// The web hook worker (issue 11): delivers the durable outbox (migration 050; rows are written by triggers in the
// transaction of the event, alarm change or identity change). Due rows are leased (next_at moved ahead, `for update
// skip locked`, so two servers on one PostgreSQL never send the same attempt twice), POSTed signed, and every
// attempt is recorded with status, latency and a bounded response excerpt. A failure is retried after an
// exponential backoff until WEBHOOK_MAX_ATTEMPTS; then the delivery is 'failed' (an operator may redeliver it).
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, webhookBackoffMs } from '../../contract';
import type { Db } from '../db/db';
import { claimDueDeliveries, recordDeliveryAttempt, type DueDelivery } from '../db/queries/webhooks';
import { signature } from './sign';
import { RefusedTarget, postToTarget, type Resolve } from './targets';

export interface WebhookWorkerOptions {
  /** How often due deliveries are looked for (default 1 s). */
  pollMs?: number;
  /** Backoff before retry n (default contract webhookBackoffMs: 5 s, 10 s, 20 s …); tests shorten it. */
  backoffMs?: (attempt: number) => number;
  /** Per-attempt time limit (default 10 s). */
  timeoutMs?: number;
  maxAttempts?: number;
  /** Deliveries per round at most. */
  batch?: number;
  log?: (m: string) => void;
  /** Deliver to this machine and the site network too (WEBHOOK_PRIVATE_TARGETS=allow; tests' receivers). */
  allowPrivateTargets?: boolean;
  /** Looks host names up for the connect-time guard and the check on save (the system resolver by default; tests give their own). */
  resolve?: Resolve;
}

/** The largest part of a receiver's answer kept per attempt. */
export const RESPONSE_EXCERPT_CHARS = 500;
const LEASE_S = 60;

type Due = DueDelivery;

export function createWebhookWorker(db: Db, o: WebhookWorkerOptions = {}) {
  const pollMs = o.pollMs ?? 1000,
    timeoutMs = o.timeoutMs ?? 10_000,
    maxAttempts = o.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS;
  const backoff = o.backoffMs ?? ((n: number) => webhookBackoffMs(n));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;

  async function claim(): Promise<Due[]> {
    return claimDueDeliveries(db, o.batch ?? 20, LEASE_S);
  }

  async function deliver(d: Due): Promise<void> {
    const attempt = d.attempts + 1;
    const body = JSON.stringify({ deliveryId: Number(d.id), ...(typeof d.body === 'string' ? JSON.parse(d.body) : (d.body as object)) });
    const ts = String(Math.floor(Date.now() / 1000));
    const started = performance.now();
    let status: number | null = null,
      response = '',
      error: string | null = null;
    if (!d.active) error = 'The web hook is disabled';
    else {
      try {
        // Through the connect-time guard (targets.ts): one lookup, every address checked, the socket pinned to them.
        const res = await postToTarget(d.url, {
          timeoutMs,
          allowPrivate: !!o.allowPrivateTargets,
          resolve: o.resolve,
          maxResponseChars: RESPONSE_EXCERPT_CHARS,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Gatehouse-Webhooks/1',
            'x-gatehouse-delivery': d.id,
            'x-gatehouse-event': d.event_type,
            [WEBHOOK_TIMESTAMP_HEADER]: ts,
            [WEBHOOK_SIGNATURE_HEADER]: signature(d.secret, ts, body),
          },
          body,
        });
        status = res.status;
        response = res.response;
        if (status < 200 || status > 299) error = `The receiver answered ${status}`;
      } catch (e) {
        const err = e as Error & { code?: string };
        error =
          err instanceof RefusedTarget
            ? `Not sent: ${err.message}`
            : err.name === 'TimeoutError'
              ? `No answer within ${timeoutMs} ms`
              : `${err.message}${err.code && !err.message.includes(err.code) ? ` (${err.code})` : ''}`;
      }
    }
    const latency = Math.round(performance.now() - started);
    const ok = error === null;
    const giveUp = !ok && (attempt >= maxAttempts || !d.active);
    await db.transaction(async (tx) => {
      await recordDeliveryAttempt(tx, d, {
        attempt,
        status,
        ok,
        latency,
        error: error?.slice(0, 500) ?? null,
        response: response || null,
        state: ok ? 'delivered' : giveUp ? 'failed' : 'pending',
        retryMs: ok || giveUp ? 0 : Math.round(backoff(attempt)),
      });
    });
  }

  async function round(): Promise<void> {
    for (;;) {
      const due = await claim();
      if (!due.length) return;
      await Promise.all(due.map((d) => deliver(d).catch((e) => o.log?.(`web hook delivery ${d.id}: ${(e as Error).message}`))));
      if (stopped) return;
    }
  }
  function tick() {
    if (stopped || running) return;
    running = round()
      .catch((e) => o.log?.(`web hook worker: ${(e as Error).message}`))
      .finally(() => {
        running = null;
      });
  }

  return {
    /** The resolver deliveries use; a hook's check on save asks the same one. */
    resolve: o.resolve,
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(tick, pollMs);
      tick();
    },
    /** Look for due deliveries now (after a redeliver). */
    kick: tick,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
export type WebhookWorker = ReturnType<typeof createWebhookWorker>;
