// Who is where, as an edge let them through (issue 47): a batch's granted swipes move each identity's presence in one
// statement of the pipeline's transaction that stores them (server/db/queries/edgeIngest.ts movePresence), the latest
// swipe of each identity winning, even when the batch names the same identity several times and out of time order; a
// swipe older than the presence stored changes nothing; and "Why?" of an offline edge swipe says when it reached the
// server: the stored event's own time. Two controllers' batches at once naming the same people in opposite orders both
// move them (in the order swiped, the two statements deadlocked on PostgreSQL). A presence write, or a door status
// write, that the database refuses fails the whole batch: nothing of it is stored, its numbers are not noted, and sent
// again it lands whole, events and what they move together (written after the events' transaction, a failure there
// left the events stored and the move lost for ever: the edge does not send a stored batch again).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, controllersResource } from '../../contract';
import { movePresence } from '../db/queries/edgeIngest';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let key = '';
let admin = '';
let controllerId = 0;
const doors: { id: number; zone: number }[] = [];
let identityId = 0;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.loginTo('admin', 'NORTHWIND');
  // two doors of the client, each into a zone of its own
  const { rows } = await s.db.query<{ id: number; client_id: number }>(
    `select d.id, d.client_id from doors d join clients k on k.id = d.client_id where k.code = 'NORTHWIND' order by d.id limit 2`,
  );
  expect(rows).toHaveLength(2);
  for (const [n, r] of rows.entries()) {
    const z = await s.db.query<{ id: number }>(`insert into access_zones (client_id, name) values ($1, $2) returning id`, [r.client_id, `Presence zone ${n}`]);
    await s.db.query('update doors set entry_zone_id = $2 where id = $1', [r.id, z.rows[0].id]);
    doors.push({ id: Number(r.id), zone: Number(z.rows[0].id) });
  }
  const c = await s.db.query<{ id: number }>(
    `select c.id from controllers c join clients k on k.id = c.client_id where k.code = 'NORTHWIND' order by c.id limit 1`,
  );
  controllerId = Number(c.rows[0].id);
  const i = await s.db.query<{ id: number }>(
    `select i.id from identities i join clients k on k.id = i.client_id where k.code = 'NORTHWIND' order by i.id limit 1`,
  );
  identityId = Number(i.rows[0].id);
  const made = await s.call('POST', `${controllersResource.api}/${controllerId}/edge-key`, { token: admin, body: {} });
  expect(made.status).toBe(200);
  key = made.body.apiKey;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const lastSeq = async () =>
  Number(
    (await s.db.query<{ n: string }>('select coalesce(max(last_seq), 0)::text as n from edge_controllers where controller_id = $1', [controllerId])).rows[0]
      ?.n ?? 0,
  );
const granted = (seq: number, door: { id: number }, at: number, offline = true) => ({
  controllerId,
  eventCode: 5000,
  sourceId: `reader-${door.id}`,
  message: `Presence test ${seq}`,
  edge: {
    seq,
    occurredAt: at,
    offline,
    snapshotVersion: 1,
    decided: { identityId, decision: 'granted', reason: 'granted', card: '4242', doorId: door.id, side: 'entry' },
  },
});
const post = (events: unknown[]) => s.call('POST', API.deviceEvents, { headers: { authorization: `Bearer ${key}` }, body: { events } });
const presence = async () =>
  (await s.db.query<{ zone_id: number; at: Date | string }>('select zone_id, at from zone_presence where identity_id = $1', [identityId])).rows[0];

describe("an edge's grants move who is where", () => {
  it('the latest of a batch wins, whatever the order it names the identity in; an older swipe later changes nothing', async () => {
    const from = (await lastSeq()) + 1;
    const t0 = Date.now() - 60_000;
    // in journal order: into zone B at t0+1000, then a swipe journaled later but decided earlier (t0+500) into zone A
    const r = await post([granted(from, doors[0], t0), granted(from + 1, doors[1], t0 + 1000), granted(from + 2, doors[0], t0 + 500)]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ accepted: 3, rejected: [] });
    const p = await presence();
    expect({ zone: Number(p.zone_id), at: new Date(p.at).getTime() }).toEqual({ zone: doors[1].zone, at: t0 + 1000 });
    // a later batch with an older grant: still zone B
    const older = await post([granted(from + 3, doors[0], t0 + 900)]);
    expect(older.status).toBe(200);
    const q = await presence();
    expect({ zone: Number(q.zone_id), at: new Date(q.at).getTime() }).toEqual({ zone: doors[1].zone, at: t0 + 1000 });
    // a newer one moves it
    const newer = await post([granted(from + 4, doors[0], t0 + 2000)]);
    expect(newer.status).toBe(200);
    expect(Number((await presence()).zone_id)).toBe(doors[0].zone);
  });

  it('"Why?" of an offline swipe says when it reached the server: the stored event\'s time', async () => {
    const from = (await lastSeq()) + 1;
    const before = Date.now();
    const r = await post([granted(from, doors[0], before - 3_600_000)]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { rows } = await s.db.query<{ id: string; at: Date | string }>(`select id, at from events where message like $1`, [`Presence test ${from}%`]);
    expect(rows).toHaveLength(1);
    const why = await s.call('GET', `${API.events}/${rows[0].id}/explain`, { token: admin });
    expect(why.status, JSON.stringify(why.body)).toBe(200);
    expect(why.body.edge).toMatchObject({ offline: true, receivedAt: new Date(rows[0].at).toISOString() });
    expect(new Date(why.body.edge.receivedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(why.body.swipe.at).toBe(new Date(before - 3_600_000).toISOString());
  });
});

describe('what an edge batch moves after its events are stored', () => {
  /** `n` more people of the client (inserted as a site has them) */
  async function morePeople(n: number) {
    const { rows } = await s.db.query<{ id: number }>(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id)
       select k.id, 'Presence', 'Person ' || g, 'PRES-' || g, (select id from divisions where client_id = k.id order by id limit 1)
       from clients k, generate_series(1, $1::int) g where k.code = 'NORTHWIND' returning id`,
      [n],
    );
    return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
  }

  it("two controllers' batches at once, naming the same people in opposite orders, both move them (no deadlock)", async () => {
    // the statement two batches' done() run side by side (server/edge/ingest.ts), on the real database: in the order
    // swiped, 9 of 10 rounds deadlocked on PostgreSQL (PGlite has one connection: the two run one after the other)
    const people = await morePeople(2000);
    const clientId = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
    for (let round = 0; round < 5; round++) {
      const t0 = Date.now() - 600_000 + round * 10_000;
      // into zone A in id order, and into zone B in the reverse order, half of them later than into A
      const intoA = people.map((p, i) => ({ identityId: p, zoneId: doors[0].zone, at: t0 + 2 * i }));
      const intoB = [...people].reverse().map((p, i) => ({ identityId: p, zoneId: doors[1].zone, at: t0 + 2 * (people.length - 1 - i) + (p % 2 ? 1 : -1) }));
      const both = await Promise.allSettled([
        movePresence(
          s.db,
          intoA.map((m) => ({ clientId, ...m })),
        ),
        movePresence(
          s.db,
          intoB.map((m) => ({ clientId, ...m })),
        ),
      ]);
      expect(
        both.flatMap((x) => (x.status === 'rejected' ? [String(x.reason)] : [])),
        `round ${round}`,
      ).toEqual([]);
      const { rows } = await s.db.query<{ identity_id: number; zone_id: number }>(
        'select identity_id, zone_id from zone_presence where identity_id = any($1::int[])',
        [people],
      );
      const zoneOf = new Map(rows.map((r) => [Number(r.identity_id), Number(r.zone_id)]));
      expect(
        people.filter((p) => zoneOf.get(p) !== (p % 2 ? doors[1].zone : doors[0].zone)),
        `round ${round}: people not in the zone of their later swipe`,
      ).toEqual([]);
    }
  }, 120_000);

  /** A real fault of the database, once: a trigger on `table` that refuses the first write it sees where `when` holds
   *  (a sequence is not rolled back); dropped after `run`. */
  async function refusedOnce(table: string, when: string, run: () => Promise<void>) {
    await s.db.query(`create sequence write_fault_once`);
    await s.db.query(`create function write_fault() returns trigger language plpgsql as $f$
      begin if (${when}) and nextval('write_fault_once') = 1 then raise exception '${table} write refused once (test)'; end if; return new; end $f$`);
    await s.db.query(`create trigger write_fault before insert or update on ${table} for each row execute function write_fault()`);
    try {
      await run();
    } finally {
      await s.db.query(`drop trigger write_fault on ${table}`);
      await s.db.query(`drop function write_fault()`);
      await s.db.query(`drop sequence write_fault_once`);
    }
  }
  const storedOf = async (seqs: number[]) =>
    Number(
      (await s.db.query<{ n: string }>(`select count(*)::text n from events where message like any($1::text[])`, [seqs.map((q) => `Presence test ${q} (%`)]))
        .rows[0].n,
    );

  it('a presence write refused: the whole batch fails, nothing of it stored; sent again, its events and presence land together', async () => {
    await refusedOnce('zone_presence', 'true', async () => {
      const from = (await lastSeq()) + 1;
      const t0 = Date.now() - 30_000;
      const was = await presence();
      const batch = [granted(from, doors[0], t0), granted(from + 1, doors[1], t0 + 1)];
      const first = await post(batch);
      expect(first.status, JSON.stringify(first.body)).toBeGreaterThanOrEqual(500);
      // nothing of it: no event, no number noted, nobody moved
      expect(await storedOf([from, from + 1])).toBe(0);
      expect(await lastSeq()).toBe(from - 1);
      expect(await presence()).toEqual(was);
      // sent again (as the edge does with a batch not answered 200): stored whole, and the presence with it
      const again = await post(batch);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ accepted: 2, rejected: [], edgeLastSeq: from + 1 });
      expect(await storedOf([from, from + 1])).toBe(2);
      const p = await presence();
      expect({ zone: Number(p.zone_id), at: new Date(p.at).getTime() }).toEqual({ zone: doors[1].zone, at: t0 + 1 });
      // and the next batch follows it
      const next = await post([granted(from + 2, doors[0], t0 + 2)]);
      expect(next.body).toMatchObject({ accepted: 1, edgeLastSeq: from + 2 });
      expect(Number((await presence()).zone_id)).toBe(doors[0].zone);
    });
  });

  it("a door status write refused: the batch fails whole; sent again, the door's newest event of it sets its status", async () => {
    const door = doors[1].id;
    const doorEvent = (seq: number, eventCode: number, at: number) => ({
      controllerId,
      eventCode,
      sourceId: `door-${door}`,
      message: `Presence test ${seq}`,
      edge: { seq, occurredAt: at, offline: true, snapshotVersion: 1 },
    });
    const status = async () => (await s.db.query<{ status: string | null }>('select status from doors where id = $1', [door])).rows[0].status;
    // (only the edge's write sets status_at: the simulator's door writes pass)
    await refusedOnce('doors', 'new.status_at is distinct from old.status_at', async () => {
      const from = (await lastSeq()) + 1;
      const t0 = Date.now() - 20_000;
      const was = await status();
      // journaled in this order, happened in the other: the door was closed last (6000 at t0 + 2000)
      const batch = [doorEvent(from, 6000, t0 + 2000), doorEvent(from + 1, 6001, t0 + 1000), granted(from + 2, doors[0], t0 + 3000)];
      const first = await post(batch);
      expect(first.status, JSON.stringify(first.body)).toBeGreaterThanOrEqual(500);
      expect(await storedOf([from, from + 1, from + 2])).toBe(0);
      expect(await lastSeq()).toBe(from - 1);
      expect(await status()).toBe(was);
      const again = await post(batch);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body).toMatchObject({ accepted: 3, rejected: [], edgeLastSeq: from + 2 });
      expect(await storedOf([from, from + 1, from + 2])).toBe(3);
      expect(await status()).toBe('closed');
      expect(Number((await presence()).zone_id)).toBe(doors[0].zone);
    });
  });
});
