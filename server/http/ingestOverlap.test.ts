// The event writer with two transactions in flight (issue 30): on PostgreSQL the next batch's events are inserted while
// the previous batch processes its alarms, commits and publishes (PGlite writes one at a time; the same rules hold).
// Whatever overlaps: every accepted event is stored once, in the order sent; a console hears each event once, in id
// order, and only once it is committed; an alarm raised by one transaction is returned to normal by the next one's
// event of the same point, and the last alarm count a console hears is the open count.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API, DESTINATIONS, EVENT_CODES, SOCKJS_PREFIX, TENANT_HEADER, serviceAccountsResource } from '../../contract';
import { INGEST_TRANSACTION_MAX } from '../monitor/pipeline';
import { stompClient, waitFor, type TestClient } from '../realtime/testkit';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let key: string;
let controller: number;
let northwind: number;
let operator: string;
const clients: TestClient[] = [];

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.login('admin');
  operator = await s.login('operator');
  const nw = (
    await s.db.query<{ id: number; client_id: number }>(
      `select c.id, c.client_id from controllers c join clients t on t.id = c.client_id where t.code = 'NORTHWIND' order by c.id limit 1`,
    )
  ).rows[0];
  controller = Number(nw.id);
  northwind = Number(nw.client_id);
  const r = await s.call('POST', serviceAccountsResource.api, {
    token: admin,
    headers: { [TENANT_HEADER]: String(northwind) },
    body: { name: 'Devices overlap', role: 'device-ingest', active: true },
  });
  key = r.body.apiKey;
});
afterAll(async () => {
  for (const c of clients) await c.client.deactivate({ force: true });
  await s?.close();
});

const post = (events: unknown[]) => s.call('POST', API.deviceEvents, { body: { events }, token: key });

/** A console of the tenant; `onEvent` is called with each event as it arrives. */
async function console_(onEvent: (e: { id: number; message: string; eventSourceId: string }) => void = () => {}) {
  const c = stompClient(`${s.base}${SOCKJS_PREFIX.event}`, { Authorization: `Bearer ${operator}` });
  clients.push(c);
  await waitFor(() => c.connected || c.errors[0], 'CONNECTED');
  const subscribed = (d: string, handle: (body: string) => void) =>
    new Promise<void>((resolve) => {
      c.client.watchForReceipt(`r-${d}`, () => resolve());
      c.client.subscribe(
        d,
        (m) => {
          c.messages.push(m);
          handle(m.body);
        },
        { receipt: `r-${d}` },
      );
    });
  await subscribed(DESTINATIONS.events, (body) => onEvent(JSON.parse(body)));
  await subscribed(DESTINATIONS.alarmCount, () => {});
  return c;
}

it('an alarm raised at the end of one transaction is returned to normal by the first event of the next, written beside it', async () => {
  const watcher = await console_();
  // one request of more events than a transaction takes: two transactions, queued together, so the second is written
  // while the first commits; the alarm is the first's last event, the event returning its door to normal the second's first
  const n = INGEST_TRANSACTION_MAX + 10;
  // the first transaction raises many alarms (its own alarm work is long), the second has little to insert: without
  // waiting for the first's commit, the second would look for the door's alarm before it is there
  const events: { controllerId: number; eventCode: number; sourceId: string; pointId?: string; message: string }[] = Array.from({ length: n }, (_, i) =>
    i < INGEST_TRANSACTION_MAX && i % 2 === 0
      ? { controllerId: controller, eventCode: EVENT_CODES.doorHeldOpen, sourceId: `ov-held-${i}`, pointId: `ov-held-${i}`, message: `t:${i}` }
      : { controllerId: controller, eventCode: EVENT_CODES.accessGranted, sourceId: 'ov-reader', message: `t:${i}` },
  );
  const door = { controllerId: controller, sourceId: 'ov-door', pointId: 'ov-door' };
  events[INGEST_TRANSACTION_MAX - 1] = { ...door, eventCode: EVENT_CODES.doorForcedOpen, message: 'forced' };
  events[INGEST_TRANSACTION_MAX] = { ...door, eventCode: EVENT_CODES.doorClosed, message: 'closed' };
  const r = await post(events);
  expect([r.status, r.body.accepted, r.body.lastId - r.body.firstId + 1]).toEqual([200, n, n]);
  const forced = r.body.firstId + INGEST_TRANSACTION_MAX - 1;
  const alarm = (await s.db.query<{ state: string; note: string }>('select state, note from alarms where event_id = $1', [forced])).rows[0];
  expect(alarm).toEqual({ state: 'processed', note: `Returned to normal: event ${forced + 1}` });
  const history = await s.db.query<{ action: string }>('select action from alarm_history where alarm_id = $1 order by id', [forced]);
  expect(history.rows.map((h) => h.action)).toEqual(['raised', 'processed']);
  const { rows } = await s.db.query<{ message: string }>('select message from events where id between $1 and $2 order by id', [r.body.firstId, r.body.lastId]);
  expect(rows.map((x) => x.message)).toEqual(events.map((e) => e.message));
  // the console hears the alarm count after the change: the last count it hears is the open count
  const open = Number(
    (await s.db.query<{ n: string }>(`select count(*)::text n from alarms where client_id = $1 and state <> 'processed'`, [northwind])).rows[0].n,
  );
  await waitFor(() => watcher.messages.filter((m) => m.headers.destination === DESTINATIONS.events).length >= n, 'every event on the console', 15_000);
  // each event as heard carries its stored id and time
  const heard = watcher.messages.filter((m) => m.headers.destination === DESTINATIONS.events).map((m) => JSON.parse(m.body));
  const closed = heard.find((e) => e.message === 'closed');
  const stored = (await s.db.query<{ at: Date | string }>('select at from events where id = $1', [forced + 1])).rows[0];
  expect([closed.id, closed.time]).toEqual([forced + 1, new Date(stored.at).toISOString()]);
  await waitFor(
    () => {
      const counts = watcher.messages.filter((m) => m.headers.destination === DESTINATIONS.alarmCount);
      return counts.length > 0 && JSON.parse(counts.at(-1)!.body).count === open;
    },
    'the open count on the console',
    15_000,
  );
});

it('batches sent at once from many sources: each event stored once in the order sent, heard once, in id order, after its commit', async () => {
  const heard: { id: number; message: string }[] = [];
  const checks: Promise<number>[] = [];
  // every 50th event heard: is it committed at that moment? (a query on another connection at once)
  await console_((e) => {
    if (!e.message?.startsWith('ovc')) return;
    heard.push({ id: e.id, message: e.message });
    if (heard.length % 50 === 1) checks.push(s.count('select 1 from events where id = $1', [e.id]));
  });
  const requests = 6,
    size = 1500,
    sources = 10;
  const before = await s.count('select 1 from events');
  const answers = await Promise.all(
    Array.from({ length: requests }, (_, b) =>
      post(
        Array.from({ length: size }, (_, i) => ({
          controllerId: controller,
          eventCode: EVENT_CODES.accessGranted,
          sourceId: `ov-src-${i % sources}`,
          message: `ovc${b}:${i}`,
        })),
      ),
    ),
  );
  expect(answers.map((a) => [a.status, a.body.accepted])).toEqual(Array.from({ length: requests }, () => [200, size]));
  expect(await s.count('select 1 from events')).toBe(before + requests * size);
  expect(await s.count(`select distinct message from events where message like 'ovc%'`)).toBe(requests * size);
  // per request and so per source: stored in the order sent
  for (let b = 0; b < requests; b++) {
    const { rows } = await s.db.query<{ message: string }>(`select message from events where message like $1 order by id`, [`ovc${b}:%`]);
    expect(rows.map((x) => x.message)).toEqual(Array.from({ length: size }, (_, i) => `ovc${b}:${i}`));
  }
  await waitFor(() => heard.length >= requests * size, 'every event on the console', 30_000);
  expect(heard.length).toBe(requests * size);
  expect(new Set(heard.map((h) => h.message)).size).toBe(requests * size);
  expect(heard.every((h, i) => i === 0 || h.id > heard[i - 1].id)).toBe(true);
  expect(await Promise.all(checks)).toEqual(checks.map(() => 1));
});
