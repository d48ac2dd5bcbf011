// Back-pressure of the device interface (issue 13): past the backlog a server may hold, a batch is refused whole with
// 503 and Retry-After, nothing of it stored; the batches accepted before it are all written once the writer moves
// again, and the device simulator, sending its refused batches again, loses none and doubles none.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { API, EVENT_CODES, TENANT_HEADER, serviceAccountsResource } from '../../contract';
import { runDeviceSimulator } from '../../scripts/deviceSimulator';
import { startTestServer, type TestServer } from '../testkit';

const BACKLOG = 30;
let s: TestServer;
let key: string;
/** While set, the event writer waits for it (ServerOptions.beforeIngestWrite). */
let held: Promise<void> | null = null;
let controller: number;

beforeAll(async () => {
  s = await startTestServer({ ingestBacklogMax: BACKLOG, beforeIngestWrite: () => held ?? Promise.resolve() });
  const admin = await s.login('admin');
  const nw = (
    await s.db.query<{ id: number; client_id: number }>(
      `select c.id, c.client_id from controllers c join clients t on t.id = c.client_id where t.code = 'NORTHWIND' order by c.id limit 1`,
    )
  ).rows[0];
  controller = Number(nw.id);
  const r = await s.call('POST', serviceAccountsResource.api, {
    token: admin,
    headers: { [TENANT_HEADER]: String(nw.client_id) },
    body: { name: 'Devices', role: 'device-ingest', active: true },
  });
  key = r.body.apiKey;
});
afterAll(async () => {
  await s?.close();
});

const batch = (tag: string, n = 20) =>
  Array.from({ length: n }, (_, i) => ({ controllerId: controller, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-bp', message: `${tag}:${i}` }));
const post = (events: unknown[]) =>
  fetch(s.base + API.deviceEvents, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
/** Holds the event writer until the returned function is called (it lets it go; calling it again does nothing). */
function holdWriter(): () => void {
  let release!: () => void;
  held = new Promise<void>((r) => {
    release = r;
  });
  return () => {
    held = null;
    release();
  };
}
/**
 * The batch's fate while the writer is held: its answer (a refusal), or null once it is taken (counted in the writer's
 * backlog, its answer held with the write). Not a timer: on a loaded machine a refusal may take longer than any sleep.
 */
async function takenOrAnswered(p: Promise<Response>, backlogBefore: number, size: number): Promise<Response | null> {
  let answer: Response | null = null;
  let settled = false;
  void p
    .then((a) => {
      answer = a;
    })
    .finally(() => {
      settled = true;
    })
    .catch(() => {});
  await vi.waitFor(
    () => {
      if (!settled && s.app.pipeline.backlog() < backlogBefore + size) throw new Error('the batch is neither taken nor answered yet');
    },
    { timeout: 10_000, interval: 5 },
  );
  return answer;
}
/** Resolves once the writer's backlog (held events, in the transaction and waiting) is `n`. */
const backlogReaches = (n: number) => expect.poll(() => s.app.pipeline.backlog(), { timeout: 10_000, interval: 5 }).toBe(n);
const stored = async (prefix: string) =>
  Number((await s.db.query<{ n: string }>(`select count(*)::text n from events where message like $1`, [`${prefix}%`])).rows[0].n);

it('refuses a batch with 503 and Retry-After while the writer is behind, stores none of it, and writes every accepted batch', async () => {
  // the interface knows the controller after one batch (no look-up on the way in after that)
  expect((await post(batch('warm', 1))).status).toBe(200);
  // hold the writer: the first batch goes into the transaction that waits; past BACKLOG accepted-not-durable, refused
  const release = holdWriter();
  const pending: Promise<Response>[] = [];
  let refused: Response | null = null;
  try {
    for (let i = 0; i < 6 && !refused; i++) {
      const p = post(batch(`bp${i}`));
      const answer = await takenOrAnswered(p, s.app.pipeline.backlog(), 20);
      if (answer?.status === 503) refused = answer;
      else if (answer) throw new Error(`answered ${answer.status} while the writer was held`);
      else pending.push(p);
    }
  } finally {
    release();
  }
  expect(refused).not.toBeNull();
  // 20 in the held transaction (below 30: a second batch is taken), then 40 waiting (30 or more: the third is refused)
  expect(pending.length).toBe(2);
  expect(refused!.headers.get('retry-after')).toBe('1');
  expect((await refused!.json()).message).toMatch(/send this batch again/);
  const answers = await Promise.all(pending);
  for (const [i, a] of answers.entries()) expect([i, a.status, (await a.json()).accepted, await stored(`bp${i}:`)]).toEqual([i, 200, 20, 20]);
  expect(await stored('bp2:')).toBe(0); // the refused batch: nothing of it, now or later
  expect((await post(batch('after'))).status).toBe(200); // the writer caught up: batches are taken again
});

it('the device simulator sends a refused batch again: at a rate past the backlog every event is stored once', async () => {
  const before = await s.count('select 1 from events');
  // the writer held for the first second, so batches pile up past the backlog and are refused whatever the machine's
  // speed (a bare rate past the backlog depended on it: on a loaded machine the simulator sent 300 events in its second
  // and none was refused)
  const release = holdWriter();
  const releaseLater = setTimeout(() => {
    release();
  }, 1000);
  const r = await runDeviceSimulator({ url: s.base, keys: [key], controllers: 10, rate: 2000, durationS: 2 }).finally(() => {
    clearTimeout(releaseLater);
    release();
  });
  expect(r.failedRequests).toBe(0);
  expect(r.deferred).toBeGreaterThan(0);
  expect(r.accepted).toBe(r.sent);
  expect(await s.count('select 1 from events')).toBe(before + r.sent);
});

it('with the backlog full, refuses any batch with 503 before reading its body, and reads bodies again once the writer catches up', async () => {
  expect((await post(batch('warm2', 1))).status).toBe(200);
  const release = holdWriter();
  const pending: Promise<Response>[] = [];
  const broken = () =>
    fetch(s.base + API.deviceEvents, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"events": [' });
  try {
    // 20 in the held transaction and 10 waiting: the backlog is at its 30
    pending.push(post(batch('full-a')));
    await backlogReaches(20);
    pending.push(post(batch('full-b', 10)));
    await backlogReaches(30);
    // a body that is not even JSON: with the backlog full it is not parsed at all (else 400)
    const refused = await broken();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await refused.json()).message).toMatch(/send this batch again/);
  } finally {
    release();
  }
  for (const a of await Promise.all(pending)) expect(a.status).toBe(200);
  expect([await stored('full-a:'), await stored('full-b:')]).toEqual([20, 10]);
  // the writer caught up: the same body is read, and refused for what it is
  const answer = await broken();
  expect(answer.status).toBe(400);
  expect((await answer.json()).violations[0].field).toBe('(body)');
});
