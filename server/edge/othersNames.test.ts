// Tenant isolation of an edge's events (issue 47): another client's person or door, named by a client's edge, is
// answered exactly as an id that exists nowhere (404, never 403: another tenant's id is indistinguishable from one that
// does not exist). A refusal of the one and the storing of the other told a device key which ids exist in other clients.
// Both are stored as the door saw them, attributed to no one, moving nobody; nothing of the other client is read,
// written or held: its people's presence, its doors' status (a door event `door-N` naming its door, or its door's
// status moved by its own edge in the same transaction) and its events stay as they were. On the real server and
// database (PGlite and PostgreSQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, controllersResource } from '../../contract';
import { heldIngestWriter, startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin = '';
let northwind = 0;
let harbour = 0;
/** Northwind's controller and Harbour's, each with its edge key */
let nw = { id: 0, key: '' };
let hb = { id: 0, key: '' };
/** Harbour's person (present in Harbour's zone) and door (into that zone) */
let theirs = { person: 0, door: 0, zone: 0 };
/** ids no client has */
const NOWHERE = { person: 900_000_001, door: 900_000_002 };
/** Northwind's person and door (into a zone of its own) */
let ours = { person: 0, card: 'OTHERS-1', door: 0, zone: 0 };
/** the pipeline's writer, held on demand: what is admitted meanwhile waits in its queue */
const writer = heldIngestWriter();

beforeAll(async () => {
  s = await startTestServer({
    beforeIngestWrite: writer.beforeIngestWrite,
  });
  northwind = await s.clientIdOf('NORTHWIND');
  harbour = await s.clientIdOf('HARBOUR');
  const edgeKey = async (client: number, code: string) => {
    const token = await s.loginTo('admin', code);
    const id = Number((await s.db.query<{ id: number }>('select id from controllers where client_id = $1 order by id limit 1', [client])).rows[0].id);
    const made = await s.call('POST', `${controllersResource.api}/${id}/edge-key`, { token, body: {} });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    return { token, c: { id, key: made.body.apiKey as string } };
  };
  const n = await edgeKey(northwind, 'NORTHWIND');
  admin = n.token;
  nw = n.c;
  hb = (await edgeKey(harbour, 'HARBOUR')).c;
  const place = async (client: number, tag: string) => {
    const z = await s.db.query<{ id: number }>('insert into access_zones (client_id, name) values ($1, $2) returning id', [client, `Others zone ${tag}`]);
    const d = await s.db.query<{ id: number }>(
      `insert into doors (client_id, division_id, name, entry_zone_id, status, status_at)
       values ($1, (select id from divisions where client_id = $1 order by id limit 1), $2, $3, 'closed', now() - interval '1 hour') returning id`,
      [client, `Others door ${tag}`, z.rows[0].id],
    );
    const p = await s.db.query<{ id: number }>(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id)
       values ($1, 'Others', $2, $3, (select id from divisions where client_id = $1 order by id limit 1)) returning id`,
      [client, `Person ${tag}`, `OTHERS-${tag}`],
    );
    return { person: Number(p.rows[0].id), door: Number(d.rows[0].id), zone: Number(z.rows[0].id) };
  };
  theirs = await place(harbour, 'H');
  await s.db.query(`insert into zone_presence (identity_id, client_id, zone_id, at) values ($1, $2, $3, now() - interval '1 hour')`, [
    theirs.person,
    harbour,
    theirs.zone,
  ]);
  ours = { ...(await place(northwind, 'N')), card: 'OTHERS-1' };
  expect(await s.count('select 1 from identities where id = $1', [NOWHERE.person])).toBe(0);
  expect(await s.count('select 1 from doors where id = $1', [NOWHERE.door])).toBe(0);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const lastSeq = async (c: number) =>
  Number((await s.db.query<{ n: string }>('select last_seq::text n from edge_controllers where controller_id = $1', [c])).rows[0]?.n ?? 0);
const post = (c: { key: string }, events: unknown[]) => s.call('POST', API.deviceEvents, { headers: { authorization: `Bearer ${c.key}` }, body: { events } });
const swipe = (c: { id: number }, seq: number, person: number | null, door: number, extra: { live?: true } = {}) => ({
  controllerId: c.id,
  eventCode: EVENT_CODES.accessGranted,
  sourceId: `reader-${door}`,
  message: `Others test ${c.id}:${seq}`,
  edge: {
    seq,
    occurredAt: Date.now() - 1_000,
    offline: false,
    snapshotVersion: 1,
    ...extra,
    decided: { identityId: person, decision: 'granted', reason: 'granted', card: ours.card, doorId: door, side: 'entry' },
  },
});
const doorEvent = (c: { id: number }, seq: number, door: number, eventCode: number, at = Date.now() - 1_000) => ({
  controllerId: c.id,
  eventCode,
  sourceId: `door-${door}`,
  message: `Others test ${c.id}:${seq}`,
  edge: { seq, occurredAt: at, offline: false, snapshotVersion: 1 },
});
/** A batch of Northwind's edge from `from` naming `person` and `door` (another client's, or nobody's): every way a decided
 *  swipe or a door event names them, the live lane's too (stored ahead, then its backlog copy a duplicate). */
const naming = (from: number, name: { person: number; door: number }) => [
  swipe(nw, from, name.person, ours.door), // the person
  swipe(nw, from + 1, ours.person, name.door), // the door
  swipe(nw, from + 2, name.person, name.door), // both
  doorEvent(nw, from + 3, name.door, EVENT_CODES.doorForcedOpen), // a door event of that door
  swipe(nw, from + 5, name.person, name.door, { live: true }), // ahead of the journal (the live lane), naming both
  doorEvent(nw, from + 4, name.door, EVENT_CODES.doorClosed),
  swipe(nw, from + 5, name.person, name.door), // the backlog's copy of the live one
];
/** An answer without what differs between two batches by itself: the ids of its events and the journal's numbers. */
const shape = (r: { status: number; body: any }, from: number) => ({
  status: r.status,
  body: {
    ...r.body,
    ...(typeof r.body.firstId === 'number' ? { firstId: 'id', lastId: r.body.lastId - r.body.firstId } : {}),
    ...(typeof r.body.edgeLastSeq === 'number' ? { edgeLastSeq: r.body.edgeLastSeq - from } : {}),
  },
});
/** Northwind's stored events of these journal numbers, without their ids. */
const storedOf = async (seqs: number[]) =>
  (
    await s.db.query<{ identity_id: number | null; decision: string | null; swipe: { doorId: number } | null; client_id: number; event_source_id: string }>(
      `select identity_id, decision, swipe, client_id, event_source_id from events where message = any($1::text[]) order by id`,
      [seqs.map((q) => `Others test ${nw.id}:${q}`)],
    )
  ).rows.map((r) => ({
    identity: r.identity_id,
    decision: r.decision,
    client: Number(r.client_id),
    swipeDoor: r.swipe?.doorId ?? null,
    source: r.event_source_id,
  }));
const eventIdsOf = async (seqs: number[]) =>
  (
    await s.db.query<{ id: string }>('select id::text from events where message = any($1::text[]) order by id', [seqs.map((q) => `Others test ${nw.id}:${q}`)])
  ).rows.map((r) => r.id);
/** Everything of Harbour an edge event could reach: its people's presence, its doors' status, its events, its people. */
const harbourRows = async () =>
  JSON.stringify(
    await Promise.all([
      s.db.query('select to_jsonb(p)::text r from zone_presence p where client_id = $1 order by identity_id', [harbour]),
      s.db.query('select to_jsonb(d)::text r from doors d where client_id = $1 order by id', [harbour]),
      s.db.query('select count(*)::text n, max(id)::text m from events where client_id = $1', [harbour]),
      s.db.query('select to_jsonb(i)::text r from identities i where client_id = $1 order by id', [harbour]),
    ]).then((rs) => rs.map((r) => r.rows)),
  );
const presenceOf = async (identityId: number) =>
  (await s.db.query<{ zone_id: number }>('select zone_id from zone_presence where identity_id = $1', [identityId])).rows.map((r) => Number(r.zone_id));

describe("another client's person or door named by an edge", () => {
  it('is answered exactly as an id that exists nowhere: the same status, body, rejected list and counts, stored alike, and nothing of the other client changed', async () => {
    const before = await harbourRows();
    const from = (await lastSeq(nw.id)) + 1;
    // the batch naming Harbour's, then the same batch naming ids nobody has, each from its own first number
    const foreign = await post(nw, naming(from, theirs));
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(200);
    const next = from + 6;
    const nowhere = await post(nw, naming(next, NOWHERE));
    expect(nowhere.status, JSON.stringify(nowhere.body)).toBe(200);
    expect(shape(foreign, from)).toEqual(shape(nowhere, next));
    expect(foreign.body).toMatchObject({ accepted: 6, duplicates: 1, rejected: [], edgeLastSeq: from + 5 });
    // stored alike: attributed to no one, the door id as the edge sent it (the edge's word, read back only with
    // Northwind's condition), Northwind's
    const seqs = (n: number) => [0, 1, 2, 3, 4, 5].map((k) => n + k);
    const [a, b] = [await storedOf(seqs(from)), await storedOf(seqs(next))];
    const named = (rows: typeof a, name: { person: number; door: number }) =>
      rows.map((r) => ({ ...r, swipeDoor: r.swipeDoor === name.door ? 'named' : r.swipeDoor, source: r.source.replace(String(name.door), 'named') }));
    expect(named(a, theirs)).toEqual(named(b, NOWHERE));
    expect(a).toHaveLength(6);
    expect(a.every((r) => r.client === northwind)).toBe(true);
    expect(a.flatMap((r) => (r.identity === null ? [] : [r.identity]))).toEqual([ours.person]);
    // nobody moved: Northwind's person went through no door Northwind has
    expect(await presenceOf(ours.person)).toEqual([]);
    // "Why?" of each swipe: the same answer, no name of Harbour's door or person in it
    const swipes = (n: number) => [n, n + 1, n + 2, n + 5];
    const [ea, eb] = [await eventIdsOf(swipes(from)), await eventIdsOf(swipes(next))];
    expect(ea).toHaveLength(4);
    for (const [i, id] of ea.entries()) {
      const [x, y] = [
        await s.call('GET', `${API.events}/${id}/explain`, { token: admin }),
        await s.call('GET', `${API.events}/${eb[i]}/explain`, { token: admin }),
      ];
      expect(x.status, JSON.stringify(x.body)).toBe(200);
      // the door's id as sent, wherever "Why?" says it back
      const plain = (body: any, name: { door: number }) =>
        JSON.parse(
          JSON.stringify({ ...body, eventId: 'id', edge: { ...body.edge, receivedAt: 'at' }, swipe: { ...body.swipe, at: 'at' } })
            .replaceAll(`"doorId":${name.door}`, '"doorId":"named"')
            .replaceAll(`"id":${name.door}`, '"id":"named"')
            .replaceAll(`door ${name.door} `, 'door named '),
        );
      expect(plain(x.body, theirs)).toEqual(plain(y.body, NOWHERE));
      if (i > 0) expect(x.body.swipe.doorName).toBeNull(); // Harbour's door is named by none
      expect(x.body.identityName).toBeNull();
    }
    // the resends: duplicates alike
    const [againA, againB] = [await post(nw, naming(from, theirs)), await post(nw, naming(next, NOWHERE))];
    expect([againA.status, againA.body]).toEqual([againB.status, againB.body]);
    expect(againA.body).toEqual({ accepted: 0, firstId: null, lastId: null, rejected: [], duplicates: 7, edgeLastSeq: next + 5 });
    // Harbour's presence, doors' status, events and people as they were
    expect(await harbourRows()).toBe(before);
  });

  it("moves no other client's door, and never holds back that client's own edge moving it in the same transaction", async () => {
    const from = (await lastSeq(nw.id)) + 1;
    const hbFrom = (await lastSeq(hb.id)) + 1;
    // Harbour's own edge says its door is locked; Northwind's edge names that door (forced open, later) in the same
    // transaction of the pipeline: the newest of the door's moves was Northwind's, and Harbour's own was lost
    const release = writer.hold();
    const wrote = writer.writes;
    const filler = post(hb, [{ controllerId: hb.id, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-hold', message: 'Others test hold' }]);
    for (let i = 0; writer.writes === wrote; i++) {
      if (i > 2000) throw new Error('the writer not held in 20 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    const queued = s.app.pipeline.backlog();
    const theirsFirst = post(hb, [doorEvent(hb, hbFrom, theirs.door, EVENT_CODES.doorLocked, Date.now() - 2_000)]);
    for (let i = 0; s.app.pipeline.backlog() < queued + 1; i++) {
      if (i > 2000) throw new Error('the first batch not queued in 20 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    const oursNext = post(nw, [doorEvent(nw, from, theirs.door, EVENT_CODES.doorForcedOpen, Date.now() - 1_000)]);
    for (let i = 0; s.app.pipeline.backlog() < queued + 2; i++) {
      if (i > 2000) throw new Error('the second batch not queued in 20 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    release();
    expect((await filler).status).toBe(200);
    const [h, n] = [await theirsFirst, await oursNext];
    expect(h.body).toMatchObject({ accepted: 1, rejected: [] });
    expect(n.body).toMatchObject({ accepted: 1, rejected: [] });
    const { rows } = await s.db.query<{ status: string }>('select status from doors where id = $1', [theirs.door]);
    expect(rows[0].status).toBe('locked');
  });
});
