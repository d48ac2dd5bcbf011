// A hardware simulator as its own process (issue 13): N virtual controllers send card swipes, door states and the odd
// alarm to a server's device interface (POST /api/devices/events, contract/ingest.ts) at a given total rate, in
// batches every 50 ms, without waiting for one batch before sending the next (an open loop, as real controllers do).
// Used by `npm run simulator` and by the ingest benchmark.
import { performance } from 'node:perf_hooks';
import { API, EVENT_CODES, INGEST_TOKEN_HEADER, type DeviceBatchResult, type DeviceEvent } from '../contract';

export interface DeviceSimOptions {
  url: string;
  token: string;
  /** virtual controllers, spread over the server's real ones (each real controller decides a tenant) */
  controllers: number;
  /** events per second over all controllers */
  rate: number;
  durationS: number;
  /** one alarm (door forced open) in this many events, then its door closes again */
  alarmEvery?: number;
  /** put the send time in each message (the benchmark measures publish latency from it) */
  stamp?: boolean;
  onSecond?: (s: { second: number; sent: number; accepted: number; rejected: number; inFlight: number }) => void;
}

export interface DeviceSimResult { sent: number; accepted: number; rejected: number; failedRequests: number; elapsedMs: number; lastResponseMs: number }

export async function runDeviceSimulator(o: DeviceSimOptions): Promise<DeviceSimResult> {
  const headers = { 'content-type': 'application/json', [INGEST_TOKEN_HEADER]: o.token };
  const res = await fetch(o.url + API.deviceControllers, { headers });
  if (res.status !== 200) throw new Error(`device interface at ${o.url}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  const real = (await res.json()) as { id: number }[];
  if (!real.length) throw new Error('the server knows no controllers');
  const virtual = Array.from({ length: o.controllers }, (_, i) => ({ id: real[i % real.length].id, n: i }));
  const alarmEvery = o.alarmEvery ?? 1000;
  const TICK_MS = 50;
  const perTick = o.rate * TICK_MS / 1000;
  let carry = 0, seq = 0, sent = 0, accepted = 0, rejected = 0, failedRequests = 0, inFlight = 0, lastResponseMs = 0;
  const pending = new Set<Promise<void>>();
  const start = performance.now();

  function event(): DeviceEvent {
    const i = seq++;
    const c = virtual[i % virtual.length];
    const door = `door-${c.n}-${(i >> 4) % 8}`;
    const stamp = o.stamp ? ` t=${(performance.timeOrigin + performance.now()).toFixed(1)}` : '';
    if (i % alarmEvery === alarmEvery - 1) return { controllerId: c.id, eventCode: EVENT_CODES.doorForcedOpen, sourceId: door, pointId: door, message: `Door forced open${stamp}` };
    if (i % alarmEvery === 0 && i > 0) return { controllerId: c.id, eventCode: EVENT_CODES.doorClosed, sourceId: door, pointId: door, message: `Door closed${stamp}` };
    return { controllerId: c.id, eventCode: EVENT_CODES.accessGranted, sourceId: `reader-${c.n}-${i % 4}`, pointId: door, message: `Access granted${stamp}` };
  }

  function send(events: DeviceEvent[]) {
    inFlight++;
    const p = fetch(o.url + API.deviceEvents, { method: 'POST', headers, body: JSON.stringify({ events }) })
      .then(async (r) => {
        if (r.status !== 200) { failedRequests++; return; }
        const b = (await r.json()) as DeviceBatchResult;
        accepted += b.accepted; rejected += b.rejected.length;
      })
      .catch(() => { failedRequests++; })
      .finally(() => { inFlight--; lastResponseMs = performance.now() - start; pending.delete(p); });
    pending.add(p);
  }

  let second = 0;
  const end = start + o.durationS * 1000;
  for (let tick = 0; performance.now() < end; tick++) {
    carry += perTick;
    const n = Math.floor(carry);
    carry -= n;
    for (let from = 0; from < n; from += 5000) {
      const batch = Array.from({ length: Math.min(5000, n - from) }, event);
      sent += batch.length;
      send(batch);
    }
    const s = Math.floor((performance.now() - start) / 1000);
    if (s > second) { second = s; o.onSecond?.({ second, sent, accepted, rejected, inFlight }); }
    const next = start + (tick + 1) * TICK_MS;
    await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
  }
  const elapsedMs = performance.now() - start;
  await Promise.all([...pending]);
  return { sent, accepted, rejected, failedRequests, elapsedMs, lastResponseMs };
}
