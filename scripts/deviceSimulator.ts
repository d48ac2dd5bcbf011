// A hardware simulator as its own process (issue 13): N virtual controllers send card swipes, door states and the odd
// alarm to a server's device interface (POST /api/devices/events, contract/ingest.ts) at a given total rate, in
// batches every 50 ms, without waiting for one batch before sending the next (an open loop, as real controllers do).
// Used by `npm run simulator` and by the ingest benchmark.
import { performance } from 'node:perf_hooks';
import { API, EVENT_CODES, TENANT_HEADER, serviceAccountsResource, type DeviceBatchResult, type DeviceEvent } from '../contract';

export interface DeviceSimOptions {
  url: string;
  /** Service-account API keys with the device-ingest role, one per client whose controllers it simulates. */
  keys: string[];
  /** virtual controllers, spread over the server's real ones (each real controller decides a tenant) */
  controllers: number;
  /** events per second over all controllers */
  rate: number;
  /** the longest it sends; `signal` may end it sooner */
  durationS: number;
  /** stop sending (what is on its way is still awaited): a test that sends until it has seen what it checks */
  signal?: AbortSignal;
  /** one alarm (door forced open) in this many events, then its door closes again */
  alarmEvery?: number;
  /** put the send time in each message (the benchmark measures publish latency from it) */
  stamp?: boolean;
  onSecond?: (s: { second: number; sent: number; accepted: number; rejected: number; inFlight: number }) => void;
}

/** `deferred`: batches the server refused with 503 (back-pressure) and that were sent again after its Retry-After. */
export interface DeviceSimResult {
  sent: number;
  accepted: number;
  rejected: number;
  failedRequests: number;
  deferred: number;
  elapsedMs: number;
  lastResponseMs: number;
}

export async function runDeviceSimulator(o: DeviceSimOptions): Promise<DeviceSimResult> {
  // each key sees its own client's controllers and may send only theirs
  const real: { id: number; headers: Record<string, string> }[] = [];
  for (const key of o.keys) {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
    const res = await fetch(o.url + API.deviceControllers, { headers });
    if (res.status !== 200) throw new Error(`device interface at ${o.url}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    for (const c of (await res.json()) as { id: number }[]) real.push({ id: c.id, headers });
  }
  if (!real.length) throw new Error("the server knows no controllers of these keys' clients");
  const virtual = Array.from({ length: o.controllers }, (_, i) => ({ id: real[i % real.length].id, headers: real[i % real.length].headers, n: i }));
  const alarmEvery = o.alarmEvery ?? 1000;
  const TICK_MS = 50;
  const perTick = (o.rate * TICK_MS) / 1000;
  let carry = 0,
    seq = 0,
    sent = 0,
    accepted = 0,
    rejected = 0,
    failedRequests = 0,
    deferred = 0,
    inFlight = 0,
    lastResponseMs = 0;
  const pending = new Set<Promise<void>>();
  const start = performance.now();

  function event(): { e: DeviceEvent; headers: Record<string, string> } {
    const i = seq++;
    const c = virtual[i % virtual.length];
    return { e: eventOf(i, c), headers: c.headers };
  }
  function eventOf(i: number, c: { id: number; n: number }): DeviceEvent {
    const door = `door-${c.n}-${(i >> 4) % 8}`;
    const stamp = o.stamp ? ` t=${(performance.timeOrigin + performance.now()).toFixed(1)}` : '';
    if (i % alarmEvery === alarmEvery - 1)
      return { controllerId: c.id, eventCode: EVENT_CODES.doorForcedOpen, sourceId: door, pointId: door, message: `Door forced open${stamp}` };
    if (i % alarmEvery === 0 && i > 0)
      return { controllerId: c.id, eventCode: EVENT_CODES.doorClosed, sourceId: door, pointId: door, message: `Door closed${stamp}` };
    return { controllerId: c.id, eventCode: EVENT_CODES.accessGranted, sourceId: `reader-${c.n}-${i % 4}`, pointId: door, message: `Access granted${stamp}` };
  }

  function send(events: DeviceEvent[], headers: Record<string, string>) {
    inFlight++;
    const p = fetch(o.url + API.deviceEvents, { method: 'POST', headers, body: JSON.stringify({ events }) })
      .then(async (r) => {
        // back-pressure: keep the batch, send it again when the server says (as a controller's buffer would)
        if (r.status === 503 && r.headers.get('retry-after')) {
          deferred++;
          await r.body?.cancel();
          await new Promise((res) => setTimeout(res, Number(r.headers.get('retry-after')) * 1000));
          send(events, headers);
          return;
        }
        if (r.status !== 200) {
          failedRequests++;
          return;
        }
        const b = (await r.json()) as DeviceBatchResult;
        accepted += b.accepted;
        rejected += b.rejected.length;
      })
      .catch(() => {
        failedRequests++;
      })
      .finally(() => {
        inFlight--;
        lastResponseMs = performance.now() - start;
        pending.delete(p);
      });
    pending.add(p);
  }

  let second = 0;
  const end = start + o.durationS * 1000;
  for (let tick = 0; performance.now() < end && !o.signal?.aborted; tick++) {
    carry += perTick;
    const n = Math.floor(carry);
    carry -= n;
    for (let from = 0; from < n; from += 5000) {
      const batch = Array.from({ length: Math.min(5000, n - from) }, event);
      sent += batch.length;
      // one request per key (client) of the batch
      const byKey = new Map<Record<string, string>, DeviceEvent[]>();
      for (const { e, headers } of batch) {
        const l = byKey.get(headers);
        if (l) l.push(e);
        else byKey.set(headers, [e]);
      }
      for (const [headers, events] of byKey) send(events, headers);
    }
    const s = Math.floor((performance.now() - start) / 1000);
    if (s > second) {
      second = s;
      o.onSecond?.({ second, sent, accepted, rejected, inFlight });
    }
    const next = start + (tick + 1) * TICK_MS;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  const elapsedMs = performance.now() - start;
  while (pending.size) await Promise.all([...pending]); // a deferred batch adds its resend
  return { sent, accepted, rejected, failedRequests, deferred, elapsedMs, lastResponseMs };
}

/**
 * Service-account keys for a device simulator (issue 11): signs in as an operator who may add service accounts (the
 * demo `admin` by default) and makes one account with the device-ingest role in each client it holds (or in those of
 * `onlyClients`); returns the keys.
 */
export async function provisionDeviceKeys(
  url: string,
  who: { username: string; password: string },
  label = 'Device simulator',
  onlyClients?: number[],
): Promise<string[]> {
  const login = await fetch(url + API.login, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) });
  if (login.status !== 200) throw new Error(`sign-in of ${who.username} at ${url}: ${login.status} ${(await login.text()).slice(0, 200)}`);
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const clients = await fetch(`${url}${API.clients}?size=100`, { headers: auth });
  if (clients.status !== 200) throw new Error(`clients of ${who.username}: ${clients.status}`);
  const keys: string[] = [];
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  for (const c of ((await clients.json()) as { items: { id: number }[] }).items) {
    if (onlyClients && !onlyClients.includes(c.id)) continue;
    const r = await fetch(url + serviceAccountsResource.api, {
      method: 'POST',
      headers: { ...auth, [TENANT_HEADER]: String(c.id) },
      body: JSON.stringify({ name: `${label} ${stamp}`, role: 'device-ingest', active: true, description: 'Made by the device simulator' }),
    });
    if (r.status !== 201) throw new Error(`service account in client ${c.id}: ${r.status} ${(await r.text()).slice(0, 200)}`);
    keys.push(((await r.json()) as { apiKey: string }).apiKey);
  }
  return keys;
}
