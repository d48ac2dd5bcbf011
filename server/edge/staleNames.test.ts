// An edge controller's batch that names what has changed since the edge decided (issue 47), and the pipeline's blast
// radius. An edge sends a batch again when it did not hear its answer; meanwhile the person, card, door or zone it names
// may have been deleted, or moved to another division. The resend is a duplicate: nothing stored twice, the same last
// number answered. A first send naming a person or door deleted since is stored as the event the door saw (the door did
// open), attributed to no one and moving nobody, never a foreign-key error or 500; another client's person or door
// alike, as one that exists nowhere (server/edge/othersNames.test.ts). One bad event of a batch (an unknown id, a
// malformed field, another client's id, a time far in the future) is refused on its own or stored without moving
// anything past the server's clock: the good events of its batch are stored and another controller's batches go on. A
// person deleted while its swipe waits in the pipeline's queue (checked when admitted, written after) fails no batch
// of any controller written in the same transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, controllersResource, identitiesResource } from '../../contract';
import { heldIngestWriter, startTestServer, until, tablesSnapshot, type TestServer } from '../testkit';

let s: TestServer;
let admin = '';
let northwind = 0;
/** two of Northwind's controllers, each with its edge key, and one of Harbour's */
const ctl: { id: number; key: string }[] = [];
let harbourPerson = 0;
let harbourDoor = 0;
/** the pipeline's writer, held on demand: what is admitted meanwhile waits in its queue */
const writer = heldIngestWriter();

beforeAll(async () => {
  s = await startTestServer({
    beforeIngestWrite: writer.beforeIngestWrite,
  });
  admin = await s.loginTo('admin', 'NORTHWIND');
  northwind = await s.clientIdOf('NORTHWIND');
  const { rows } = await s.db.query<{ id: number }>('select id from controllers where client_id = $1 order by id limit 2', [northwind]);
  expect(rows).toHaveLength(2);
  for (const r of rows) {
    const made = await s.call('POST', `${controllersResource.api}/${r.id}/edge-key`, { token: admin, body: {} });
    expect(made.status).toBe(200);
    ctl.push({ id: Number(r.id), key: made.body.apiKey });
  }
  const harbour = await s.clientIdOf('HARBOUR');
  harbourPerson = Number((await s.db.query<{ id: number }>('select id from identities where client_id = $1 order by id limit 1', [harbour])).rows[0].id);
  harbourDoor = Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id limit 1', [harbour])).rows[0].id);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

let made = 0;
/** A person of Northwind with a card, as a site has one. */
async function person(): Promise<{ id: number; card: string }> {
  made++;
  const { rows } = await s.db.query<{ id: number }>(
    `insert into identities (client_id, first_name, last_name, employee_no, division_id)
     values ($1, 'Stale', 'Person ' || $2::int, 'STALE-' || $2::int, (select id from divisions where client_id = $1 order by id limit 1)) returning id`,
    [northwind, made],
  );
  return { id: Number(rows[0].id), card: `77${made}` };
}
/** A door of Northwind (no reader on it: it may be deleted) leading into a zone of its own. */
async function door(): Promise<{ id: number; zone: number }> {
  made++;
  const z = await s.db.query<{ id: number }>('insert into access_zones (client_id, name) values ($1, $2) returning id', [northwind, `Stale zone ${made}`]);
  const d = await s.db.query<{ id: number }>(
    `insert into doors (client_id, division_id, name, entry_zone_id)
     values ($1, (select id from divisions where client_id = $1 order by id limit 1), $2, $3) returning id`,
    [northwind, `Stale door ${made}`, z.rows[0].id],
  );
  return { id: Number(d.rows[0].id), zone: Number(z.rows[0].id) };
}

const lastSeq = async (c: number) =>
  Number((await s.db.query<{ n: string }>('select last_seq::text n from edge_controllers where controller_id = $1', [c])).rows[0]?.n ?? 0);
const post = (c: { key: string }, events: unknown[]) => s.call('POST', API.deviceEvents, { headers: { authorization: `Bearer ${c.key}` }, body: { events } });
const swipe = (c: { id: number }, seq: number, who: { id: number; card: string } | null, d: { id: number }, at = Date.now() - 10_000) => ({
  controllerId: c.id,
  eventCode: EVENT_CODES.accessGranted,
  sourceId: `reader-${d.id}`,
  message: `Stale test ${c.id}:${seq}`,
  edge: {
    seq,
    occurredAt: at,
    offline: true,
    snapshotVersion: 1,
    decided: { identityId: who?.id ?? null, decision: 'granted', reason: 'granted', card: who?.card ?? '1', doorId: d.id, side: 'entry' },
  },
});
const doorEvent = (c: { id: number }, seq: number, d: { id: number }, eventCode: number, at: number) => ({
  controllerId: c.id,
  eventCode,
  sourceId: `door-${d.id}`,
  message: `Stale test ${c.id}:${seq}`,
  edge: { seq, occurredAt: at, offline: false, snapshotVersion: 1 },
});
/** The stored events of these journal numbers of controller `c`, in id order. */
const storedOf = async (c: { id: number }, seqs: number[]) =>
  (
    await s.db.query<{ id: string; identity_id: number | null; swipe: { doorId: number; card: string } | null; client_id: number }>(
      `select id::text, identity_id, swipe, client_id from events where split_part(message, ' (offline at ', 1) = any($1::text[]) order by id`,
      [seqs.map((q) => `Stale test ${c.id}:${q}`)],
    )
  ).rows.map((r) => ({ ...r, identity_id: r.identity_id === null ? null : Number(r.identity_id), client_id: Number(r.client_id) }));
const presenceOf = async (identityId: number) =>
  (await s.db.query<{ zone_id: number }>('select zone_id from zone_presence where identity_id = $1', [identityId])).rows.map((r) => Number(r.zone_id));
const deleteIdentity = async (id: number) => {
  const r = await s.call('DELETE', `${identitiesResource.api}/${id}`, { token: admin });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
};
const deleteDoor = async (id: number) => {
  const r = await s.call('DELETE', `/event/manage/doors/${id}`, { token: admin });
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
};

describe('a batch sent again after what it names changed', () => {
  it('is a duplicate after its person and card, door and zone were deleted or moved: nothing stored twice, the same last number', async () => {
    const c = ctl[0];
    const [p, q] = [await person(), await person()];
    const [d, e] = [await door(), await door()];
    const from = (await lastSeq(c.id)) + 1;
    const batch = [swipe(c, from, p, d), swipe(c, from + 1, q, e), doorEvent(c, from + 2, d, EVENT_CODES.doorClosed, Date.now() - 5_000)];
    const first = await post(c, batch);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ accepted: 3, rejected: [], edgeLastSeq: from + 2 });
    const stored = await storedOf(c, [from, from + 1, from + 2]);
    expect(stored.map((r) => r.identity_id)).toEqual([p.id, q.id, null]);
    // the answer lost; meanwhile p (and its card) is deleted, door d and its zone deleted, door e moved to another
    // division, q's zone presence taken with its zone
    await deleteIdentity(p.id);
    await deleteDoor(d.id);
    const other = (await s.db.query<{ id: number }>('select id from divisions where client_id = $1 order by id desc limit 1', [northwind])).rows[0].id;
    await s.db.query('update doors set division_id = $2 where id = $1', [e.id, other]);
    await s.db.query('update doors set entry_zone_id = null where id = $1', [e.id]);
    await s.db.query('delete from access_zones where id = any($1::int[])', [[d.zone, e.zone]]);
    const events = await s.count('select 1 from events');
    const again = await post(c, batch);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ accepted: 0, firstId: null, lastId: null, rejected: [], duplicates: 3, edgeLastSeq: from + 2 });
    expect(await s.count('select 1 from events')).toBe(events);
    expect(await storedOf(c, [from, from + 1, from + 2])).toEqual(stored);
    // and the next number follows
    const next = await post(c, [swipe(c, from + 3, q, e)]);
    expect(next.body).toMatchObject({ accepted: 1, rejected: [], edgeLastSeq: from + 3 });
  });

  it("a first send naming a person and door deleted since the edge decided, or another client's, is stored as the door saw it, nobody moved", async () => {
    const c = ctl[0];
    const [gone, stays] = [await person(), await person()];
    const [goneDoor, d] = [await door(), await door()];
    await deleteIdentity(gone.id);
    await deleteDoor(goneDoor.id);
    const from = (await lastSeq(c.id)) + 1;
    const r = await post(c, [
      swipe(c, from, gone, d), // the person deleted: the door opened for them
      swipe(c, from + 1, stays, goneDoor), // the door deleted
      swipe(c, from + 2, { id: harbourPerson, card: '9' }, d), // another client's person
      swipe(c, from + 3, stays, { id: harbourDoor }), // another client's door
      swipe(c, from + 4, stays, d),
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ accepted: 5, rejected: [], edgeLastSeq: from + 4 });
    const stored = await storedOf(c, [from, from + 1, from + 2, from + 3, from + 4]);
    expect(stored.map((x) => [x.identity_id, x.swipe?.doorId, x.client_id])).toEqual([
      [null, d.id, northwind], // attributed to no one: an id nobody holds may be someone's tomorrow
      [stays.id, goneDoor.id, northwind],
      [null, d.id, northwind], // another client's person: as one nobody holds
      [stays.id, harbourDoor, northwind], // another client's door: the edge's word, read back with Northwind's condition only
      [stays.id, d.id, northwind],
    ]);
    // nobody moved into a zone for the deleted person (its presence went with it), the last swipe moved the one who stays
    expect(await presenceOf(gone.id)).toEqual([]);
    expect(await presenceOf(stays.id)).toEqual([d.zone]);
    // "Why?" of each stored swipe answers, never 500
    for (const x of stored) {
      const why = await s.call('GET', `${API.events}/${x.id}/explain`, { token: admin });
      expect(why.status, `${x.id}: ${JSON.stringify(why.body)}`).toBeLessThan(500);
    }
    // the resend of it all: duplicates
    const again = await post(c, [swipe(c, from, gone, d), swipe(c, from + 2, { id: harbourPerson, card: '9' }, d), swipe(c, from + 4, stays, d)]);
    expect(again.body).toEqual({ accepted: 0, firstId: null, lastId: null, rejected: [], duplicates: 3, edgeLastSeq: from + 4 });
  });
});

describe("one bad event's blast radius", () => {
  /** Holds the writer with one event of `c` (its transaction cut and waiting): what comes next waits in the queue. */
  async function holdWriter(c: { id: number; key: string }) {
    const release = await writer.holdWhile(() =>
      post(c, [{ controllerId: c.id, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-hold', message: 'Stale test hold' }]),
    );
    return { release: async () => expect(await release()).toBe(200) };
  }
  const doorStatus = async (d: { id: number }) =>
    (await s.db.query<{ status: string | null }>('select status from doors where id = $1', [d.id])).rows[0].status;

  it("a malformed field, an unknown or another client's id and a time far in the future: each on its own, the good events of the batch and another controller's stored", async () => {
    const [c, other] = ctl;
    const [p, q] = [await person(), await person()];
    const d = await door();
    const from = (await lastSeq(c.id)) + 1;
    const otherFrom = (await lastSeq(other.id)) + 1;
    const now = Date.now();
    const held = await holdWriter(other);
    const queued = s.app.pipeline.backlog();
    // both batches in the pipeline's next transaction
    const bad = post(c, [
      swipe(c, from, p, d, now - 5_000),
      { ...swipe(c, from + 1, p, d), sourceId: 'reader\u0000x' }, // malformed: its number is used, refused with why
      swipe(c, from + 2, { id: 2_000_000_000, card: '5' }, d), // nobody's id: stored as the door saw it, attributed to no one
      swipe(c, from + 3, { id: harbourPerson, card: '6' }, d), // another client's person: as nobody's
      doorEvent(c, from + 4, d, EVENT_CODES.doorForcedOpen, Date.UTC(9000, 0, 1)), // the edge's clock far in the future
      swipe(c, from + 5, q, d, 8.64e15), // as far as a time goes: past what the database takes
      swipe(c, from + 6, p, d, now - 4_000),
    ]);
    await until('the first batch queued', () => s.app.pipeline.backlog() > queued);
    const then = s.app.pipeline.backlog();
    const good = post(other, [swipe(other, otherFrom, q, d, now - 6_000), doorEvent(other, otherFrom + 1, d, EVENT_CODES.doorLocked, now - 3_000)]);
    await until('the second batch queued', () => s.app.pipeline.backlog() >= then + 2);
    await held.release();
    const [r, o] = [await bad, await good];
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    expect(o.body).toMatchObject({ accepted: 2, rejected: [], edgeLastSeq: otherFrom + 1 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.rejected.map((x: any) => [x.index, x.violations.map((v: any) => v.field)])).toEqual([[1, ['sourceId']]]);
    expect(r.body).toMatchObject({ accepted: 6, edgeLastSeq: from + 6 });
    const stored = await storedOf(c, [from, from + 2, from + 3, from + 4, from + 5, from + 6]);
    expect(stored.map((x) => x.identity_id)).toEqual([p.id, null, null, null, q.id, p.id]);
    for (const x of stored) {
      const why = await s.call('GET', `${API.events}/${x.id}/explain`, { token: admin });
      expect(why.status, `${x.id}: ${JSON.stringify(why.body)}`).toBeLessThan(500);
    }
    // what the events moved is bounded by the server's clock: the door's and the people's later events still move them
    expect(await presenceOf(p.id)).toEqual([d.zone]);
    const next = await post(other, [
      doorEvent(other, otherFrom + 2, d, EVENT_CODES.doorClosed, Date.now() + 60_000),
      swipe(other, otherFrom + 3, q, d, Date.now() + 60_000),
    ]);
    expect(next.body).toMatchObject({ accepted: 2, rejected: [] });
    expect(await doorStatus(d)).toBe('closed');
    const later = await door();
    const moved = await post(other, [swipe(other, otherFrom + 4, q, later, Date.now() + 120_000)]);
    expect(moved.body).toMatchObject({ accepted: 1, rejected: [] });
    expect(await presenceOf(q.id)).toEqual([later.zone]);
    // and the edge's resend of the bad batch: duplicates, nothing stored twice
    const again = await post(c, [swipe(c, from + 1, p, d), { ...swipe(c, from + 1, p, d), sourceId: 'reader\u0000x' }, swipe(c, from + 6, p, d)]);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 2, edgeLastSeq: from + 6 });
    expect(again.body.rejected.map((x: any) => [x.index, x.violations.map((v: any) => v.field)])).toEqual([[1, ['sourceId']]]);
  });

  it('bad input whose number cannot be read is refused naming the field and changes nothing: an envelope (400), an unreadable number, a live event', async () => {
    const c = ctl[0];
    const d = await door();
    const from = (await lastSeq(c.id)) + 1;
    const before = await tablesSnapshot(s.db);
    for (const body of [{ events: 'nope' }, { events: [] }, { nope: 1 }]) {
      const r = await s.call('POST', API.deviceEvents, { headers: { authorization: `Bearer ${c.key}` }, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.violations.map((v: any) => v.field)).toContain('events');
    }
    const r = await post(c, [
      { ...swipe(c, from, null, d), edge: { ...swipe(c, from, null, d).edge, seq: 0 } }, // no number
      { ...swipe(c, from, null, d), controllerId: 'x' }, // no controller
      { ...swipe(c, from, null, d), sourceId: '', edge: { ...swipe(c, from, null, d).edge, live: true } }, // live: its backlog copy comes
      { ...swipe(ctl[1], from, null, d), sourceId: '' }, // another controller than the key's
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.accepted).toBe(0);
    expect(r.body.rejected.map((x: any) => [x.index, x.violations.map((v: any) => v.field)])).toEqual([
      [0, ['edge.seq']],
      [1, ['controllerId']],
      [2, ['sourceId']],
      [3, ['sourceId']],
    ]);
    expect(await lastSeq(c.id)).toBe(from - 1);
    expect(await tablesSnapshot(s.db)).toBe(before);
  });

  it('a person or zone deleted while its swipe waits in the queue fails no batch of the transaction: stored, nobody moved into what is gone', async () => {
    const [c, other] = ctl;
    const [gone, stays, q] = [await person(), await person(), await person()];
    const [d, e] = [await door(), await door()];
    const from = (await lastSeq(c.id)) + 1;
    const otherFrom = (await lastSeq(other.id)) + 1;
    const held = await holdWriter(other);
    const queued = s.app.pipeline.backlog();
    // admitted while the person and the zone are there; written after they are gone
    const first = post(c, [swipe(c, from, gone, d), swipe(c, from + 1, stays, e)]);
    await until('the first batch queued', () => s.app.pipeline.backlog() >= queued + 2);
    const second = post(other, [swipe(other, otherFrom, q, d)]);
    await until('the second batch queued', () => s.app.pipeline.backlog() >= queued + 3);
    await deleteIdentity(gone.id);
    await s.db.query('update doors set entry_zone_id = null where id = $1', [e.id]);
    await s.db.query('delete from access_zones where id = $1', [e.zone]);
    await held.release();
    const [r, o] = [await first, await second];
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ accepted: 2, rejected: [], edgeLastSeq: from + 1 });
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    expect(o.body).toMatchObject({ accepted: 1, rejected: [], edgeLastSeq: otherFrom });
    expect((await storedOf(c, [from, from + 1])).length).toBe(2);
    expect(await presenceOf(gone.id)).toEqual([]);
    expect(await presenceOf(stays.id)).toEqual([]);
    expect(await presenceOf(q.id)).toEqual([d.zone]);
  });
});
