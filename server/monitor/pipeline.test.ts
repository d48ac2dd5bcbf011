// The ingest pipeline's own rules (server/monitor/pipeline.ts), on the test server's real database (server/testkit.ts)
// with a pipeline of the test's own whose publish is recorded: each event persisted before it is published, in the
// order recorded, each published and told once; events arriving while a transaction is written go together in the next
// one; the backlog counts what waits and what is being written; a transaction the database refuses stores and
// publishes nothing of its events and the pipeline goes on; an alert raises an alarm and a later event of the same
// point returns it to normal, in one batch or across two.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESTINATIONS, EVENT_CODES, type Event } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { createPipeline, type EventInput } from './pipeline';

let s: TestServer;
let northwind: number;
let harbour: number;

beforeAll(async () => {
  s = await startTestServer();
  const id = async (code: string) => Number((await s.db.query<{ id: number }>(`select id from clients where code = $1`, [code])).rows[0].id);
  northwind = await id('NORTHWIND');
  harbour = await id('HARBOUR');
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** A pipeline over the test server's database whose publications, writes and commits the test sees. */
function pipeline(opts: { hold?: boolean } = {}) {
  const published: Array<{ clientId: number; destination: string; body: any }> = [];
  let writes = 0;
  let release: () => void = () => {};
  let held = opts.hold ? new Promise<void>((r) => (release = r)) : null;
  // the writer can be held before each transaction (beforeWrite): what is recorded meanwhile waits, unpublished
  const p = createPipeline(s.db, (clientId, destination, body) => published.push({ clientId, destination, body }), {
    beforeWrite: async () => {
      writes++;
      if (held) await held;
    },
  });
  const committed: Array<{ clientId: number; id: number }> = [];
  p.onCommitted((clientId, event) => committed.push({ clientId, id: Number(event.id) }));
  return {
    p,
    published,
    committed,
    writes: () => writes,
    release: () => {
      held = null;
      release();
    },
  };
}
const door = (point: string, eventCode: number, message = 'test'): EventInput => ({ eventCode, sourceId: point, sourceName: point, pointId: point, message });
const events = (published: Array<{ destination: string; body: any }>) =>
  published.filter((x) => x.destination === DESTINATIONS.events).map((x) => x.body as Event);

describe('the ingest pipeline', () => {
  it('persists every event before publishing it, publishes them in the order recorded with rising ids, and each once', async () => {
    const t = pipeline();
    const made = await Promise.all(
      Array.from({ length: 40 }, (_, i) => t.p.record(i % 2 ? harbour : northwind, door(`order-${i}`, EVENT_CODES.doorClosed, `n${i}`))),
    );
    const out = events(t.published);
    expect(out.map((e) => e.message)).toEqual(made.map((e) => e.message));
    expect(out.map((e) => e.message)).toEqual(Array.from({ length: 40 }, (_, i) => `n${i}`));
    const ids = out.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(40);
    // each to its own tenant, and each told once to the listeners
    expect(t.published.filter((x) => x.destination === DESTINATIONS.events).map((x) => x.clientId)).toEqual(made.map((_, i) => (i % 2 ? harbour : northwind)));
    expect(t.committed.map((c) => c.id)).toEqual(ids);
    const rows = await s.db.query<{ id: string; message: string }>(`select id, message from events where id = any($1::bigint[]) order by id`, [ids]);
    expect(rows.rows.map((r) => r.message)).toEqual(out.map((e) => e.message));
  });

  it('writes the events that arrive while a transaction is being written together in the next one, and counts them as its backlog', async () => {
    const t = pipeline({ hold: true });
    const first = t.p.record(northwind, door('batch-0', EVENT_CODES.doorClosed));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(t.writes()).toBe(1); // the first event's transaction is waiting to be written
    const rest = t.p.recordMany(Array.from({ length: 25 }, (_, i) => ({ clientId: northwind, input: door(`batch-${i + 1}`, EVENT_CODES.doorClosed) })));
    expect(t.p.backlog()).toBe(26);
    expect(events(t.published)).toEqual([]); // nothing is published before it is durable
    t.release();
    const [one, many] = await Promise.all([first, rest]);
    expect(many).toHaveLength(25);
    expect(t.writes()).toBe(2); // one transaction for the first, one for the 25 that came meanwhile
    expect(Number(many[0].id)).toBeGreaterThan(Number(one.id));
    expect(t.p.backlog()).toBe(0);
  });

  it('a transaction the database refuses stores and publishes none of its events, answers each caller with the error, and the next events are written', async () => {
    const t = pipeline({ hold: true });
    const first = t.p.record(northwind, door('refused-0', EVENT_CODES.doorClosed, 'refused-before'));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(t.writes()).toBe(1);
    // these two arrive while the first is held, so they are written together; the database refuses the second's message
    // (a NUL character is not text to PostgreSQL), so the transaction fails as a whole
    const good = t.p.record(northwind, door('refused-1', EVENT_CODES.doorClosed, 'refused-good'));
    const bad = t.p.record(harbour, door('refused-2', EVENT_CODES.doorForcedOpen, 'refused-\u0000-bad'));
    const answers = Promise.allSettled([good, bad]);
    t.release();
    await first;
    const [g, b] = await answers;
    expect([g.status, b.status]).toEqual(['rejected', 'rejected']);
    expect((g as PromiseRejectedResult).reason).toBe((b as PromiseRejectedResult).reason);
    expect(t.writes()).toBe(2);
    const stored = async (like: string) => (await s.db.query<{ message: string }>(`select message from events where message like $1 order by id`, [like])).rows;
    expect((await stored('refused-%')).map((r) => r.message)).toEqual(['refused-before']);
    expect(events(t.published).map((e) => e.message)).toEqual(['refused-before']);
    expect(t.committed).toHaveLength(1);
    // no alarm of the refused alert either, and the pipeline goes on
    expect((await s.db.query(`select 1 from alarms where event_point_id = 'refused-2'`)).rows).toEqual([]);
    const after = await t.p.record(northwind, door('refused-3', EVENT_CODES.doorClosed, 'refused-after'));
    expect(events(t.published).map((e) => e.message)).toEqual(['refused-before', 'refused-after']);
    expect((await stored('refused-%')).map((r) => r.message)).toEqual(['refused-before', 'refused-after']);
    expect(Number(after.id)).toBeGreaterThan(Number((await first).id));
    expect(t.p.backlog()).toBe(0);
  });

  it('raises an alarm for an alert and returns it to normal at the next event of the same point, across batches and within one', async () => {
    const t = pipeline();
    const forced = await t.p.record(northwind, door('door-pipe-1', EVENT_CODES.doorForcedOpen, 'forced'));
    expect(forced.alert).toBe(true);
    expect(forced.priority).toBe(1);
    const state = async (eventId: Event['id']) =>
      (await s.db.query<{ state: string; note: string | null }>(`select state, note from alarms where event_id = $1`, [eventId])).rows[0];
    expect((await state(forced.id)).state).toBe('raised');
    const closed = await t.p.record(northwind, door('door-pipe-1', EVENT_CODES.doorClosed, 'closed'));
    expect(closed.alert).toBe(false);
    expect(await state(forced.id)).toEqual({ state: 'processed', note: `Returned to normal: event ${closed.id}` });
    // another tenant's event of a point of the same name leaves this tenant's alarm alone
    const again = await t.p.record(northwind, door('door-pipe-2', EVENT_CODES.doorForcedOpen, 'forced again'));
    await t.p.record(harbour, door('door-pipe-2', EVENT_CODES.doorClosed, 'elsewhere'));
    expect((await state(again.id)).state).toBe('raised');
    // raised and returned to normal in one batch: stored processed, by the event that came after it
    const [raised, normal] = await t.p.recordMany([
      { clientId: northwind, input: door('door-pipe-3', EVENT_CODES.doorForcedOpen, 'forced in batch') },
      { clientId: northwind, input: door('door-pipe-3', EVENT_CODES.doorClosed, 'closed in batch') },
    ]);
    expect(await state(raised.id)).toEqual({ state: 'processed', note: `Returned to normal: event ${normal.id}` });
    // the open count of the tenant is what is left raised: door-pipe-2's alarm among them, none of the processed
    const open = await s.db.query<{ event_id: string }>(`select event_id from alarms where client_id = $1 and state <> 'processed'`, [northwind]);
    const openIds = open.rows.map((r) => Number(r.event_id));
    expect(openIds).toContain(Number(again.id));
    expect(openIds).not.toContain(Number(forced.id));
    expect(openIds).not.toContain(Number(raised.id));
  });
});
