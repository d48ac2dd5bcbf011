// An edge controller deleted while its batch waits in the pipeline's queue (admitted while the controller was there,
// written after it is gone), in one transaction with another controller's batch. Its key goes with it (the service
// account is deleted with the controller: a later send is 401, as any unknown key), and its numbers (edge_controllers,
// edge_seq_ahead). Never a 500: the other controller's batch is stored and answered 200 as if nothing happened (not made
// to send again); the deleted controller's batch is stored nowhere (no event, number, presence or door status of it:
// nothing half-written) and answered 503 ingest.sendAgain with Retry-After, as a batch whose numbers no longer follow
// what is stored: the edge sends it again, and is refused as its key is gone (401). Before, its numbers' row gone failed
// the whole transaction (every batch in it answered 503, the other controller's too), and a live-lane event of it
// reached edge_seq_ahead's foreign key (500 for every batch in the transaction). Controllers are enrolled, not typed in:
// the REST API neither adds nor deletes one (contract/resources/hardware.ts), so the test does both in the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, controllersResource, serviceAccountsResource } from '../../contract';
import { edgeLastSeq, holdEdgeControllers } from '../db/queries/edgeIngest';
import { advanceEdgeSeqs, noteEdgeAhead } from '../db/queries/pipeline';
import { heldIngestWriter, startTestServer, until, type TestServer } from '../testkit';

let s: TestServer;
let admin = '';
let northwind = 0;
/** a controller of Northwind with its edge key, that stays */
const other = { id: 0, key: '' };
/** the pipeline's writer, held on demand: what is admitted meanwhile waits in its queue */
const writer = heldIngestWriter();

beforeAll(async () => {
  s = await startTestServer({ beforeIngestWrite: writer.beforeIngestWrite });
  admin = await s.loginTo('admin', 'NORTHWIND');
  northwind = await s.clientIdOf('NORTHWIND');
  const { rows } = await s.db.query<{ id: number }>('select id from controllers where client_id = $1 order by id limit 1', [northwind]);
  Object.assign(other, await withKey(Number(rows[0].id)));
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** The controller's edge key, made as an installer does on its page. */
async function withKey(id: number): Promise<{ id: number; key: string }> {
  const made = await s.call('POST', `${controllersResource.api}/${id}/edge-key`, { token: admin, body: {} });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return { id, key: made.body.apiKey };
}
let made = 0;
/** A fresh controller of Northwind (nothing wired to it: deleting it breaks nothing else) with its edge key. */
async function freshController(): Promise<{ id: number; key: string }> {
  made++;
  const { rows } = await s.db.query<{ id: number }>(
    `insert into controllers (client_id, name, ip_address) values ($1, 'Deleted test ' || $2::int, '10.77.0.' || $2::int) returning id`,
    [northwind, made],
  );
  return withKey(Number(rows[0].id));
}
/** A person of Northwind, and a door of Northwind leading into a zone of its own. */
async function personAndDoor(): Promise<{ person: number; door: number; zone: number }> {
  made++;
  const p = await s.db.query<{ id: number }>(
    `insert into identities (client_id, first_name, last_name, employee_no, division_id)
     values ($1, 'Deleted', 'Person ' || $2::int, 'DELETED-' || $2::int, (select id from divisions where client_id = $1 order by id limit 1)) returning id`,
    [northwind, made],
  );
  const z = await s.db.query<{ id: number }>('insert into access_zones (client_id, name) values ($1, $2) returning id', [northwind, `Deleted zone ${made}`]);
  const d = await s.db.query<{ id: number }>(
    `insert into doors (client_id, division_id, name, entry_zone_id)
     values ($1, (select id from divisions where client_id = $1 order by id limit 1), $2, $3) returning id`,
    [northwind, `Deleted door ${made}`, z.rows[0].id],
  );
  return { person: Number(p.rows[0].id), door: Number(d.rows[0].id), zone: Number(z.rows[0].id) };
}

const lastSeq = async (c: number) =>
  Number((await s.db.query<{ n: string }>('select last_seq::text n from edge_controllers where controller_id = $1', [c])).rows[0]?.n ?? 0);
const post = (c: { key: string }, events: unknown[]) => s.call('POST', API.deviceEvents, { headers: { authorization: `Bearer ${c.key}` }, body: { events } });
const swipe = (c: { id: number }, seq: number, at: { person: number; door: number }, live = false) => ({
  controllerId: c.id,
  eventCode: EVENT_CODES.accessGranted,
  sourceId: `reader-${at.door}`,
  message: `Deleted test ${c.id}:${seq}`,
  edge: {
    seq,
    occurredAt: Date.now() - 10_000,
    offline: false,
    snapshotVersion: 1,
    ...(live ? { live: true } : {}),
    decided: { identityId: at.person, decision: 'granted', reason: 'granted', card: '1', doorId: at.door, side: 'entry' },
  },
});
const doorEvent = (c: { id: number }, seq: number, door: number) => ({
  controllerId: c.id,
  eventCode: EVENT_CODES.doorForcedOpen,
  sourceId: `door-${door}`,
  message: `Deleted test ${c.id}:${seq}`,
  edge: { seq, occurredAt: Date.now() - 5_000, offline: false, snapshotVersion: 1 },
});
/** How many events of controller `c` are stored (of its journal numbers `seqs`, or all). */
const storedOf = (c: { id: number }, seqs?: number[]) =>
  seqs
    ? s.count('select 1 from events where message = any($1::text[])', [seqs.map((q) => `Deleted test ${c.id}:${q}`)])
    : s.count('select 1 from events where message like $1', [`Deleted test ${c.id}:%`]);
/** Deleted as a controller only can be (no route deletes one): in the database, its key and numbers going with it. */
async function deleteController(id: number) {
  expect((await s.call('DELETE', `${controllersResource.api}/${id}`, { token: admin })).status).toBe(404);
  await s.db.query('delete from controllers where id = $1', [id]);
}
const presenceOf = async (identityId: number) =>
  (await s.db.query<{ zone_id: number }>('select zone_id from zone_presence where identity_id = $1', [identityId])).rows.map((r) => Number(r.zone_id));
const doorStatus = async (id: number) => (await s.db.query<{ status: string | null }>('select status from doors where id = $1', [id])).rows[0].status;

/** Holds the writer with one event of `c` (its transaction cut and waiting): what comes next waits in the queue. */
async function holdWriter(c: { id: number; key: string }) {
  const release = await writer.holdWhile(() =>
    post(c, [{ controllerId: c.id, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-hold', message: 'Deleted test hold' }]),
  );
  return { release: async () => expect(await release()).toBe(200) };
}

describe('an edge controller deleted while its events are on their way', () => {
  it.each([
    ['its journal in order', false],
    ['its journal in order and a live-lane event stored ahead of it', true],
  ])('%s: stored nowhere, sent again and refused as its key is gone; the other controller’s batch of the transaction stored, 200', async (_, withLive) => {
    const gone = await freshController();
    const [a, b] = [await personAndDoor(), await personAndDoor()];
    const otherFrom = (await lastSeq(other.id)) + 1;
    const held = await holdWriter(other);
    const queued = s.app.pipeline.backlog();
    // the controller's journal (its first numbers) and, beside it, a live event stored ahead of them; another controller's
    // swipe and door event, all admitted while the controller is there and waiting in the queue
    const first = post(gone, [swipe(gone, 1, a), doorEvent(gone, 2, a.door)]);
    await until('its batch queued', () => s.app.pipeline.backlog() >= queued + 2);
    const live = withLive ? post(gone, [swipe(gone, 5, b, true)]) : null;
    if (live) await until('its live event queued', () => s.app.pipeline.backlog() >= queued + 3);
    const then = s.app.pipeline.backlog();
    const theirs = post(other, [swipe(other, otherFrom, b), doorEvent(other, otherFrom + 1, b.door)]);
    await until('the other batch queued', () => s.app.pipeline.backlog() >= then + 2);
    expect(await lastSeq(gone.id)).toBe(0); // its row of numbers is there (admitted), nothing stored yet
    const doorBefore = await doorStatus(a.door);

    await deleteController(gone.id);
    await held.release();
    const [r, l, o] = [await first, live && (await live), await theirs];

    // the other controller's batch: stored and answered as if nothing happened
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    expect(o.body).toMatchObject({ accepted: 2, rejected: [], edgeLastSeq: otherFrom + 1 });
    expect(await storedOf(other, [otherFrom, otherFrom + 1])).toBe(2);
    expect(await presenceOf(b.person)).toEqual([b.zone]);
    expect(await doorStatus(b.door)).toBe('forced-open');
    // the deleted controller's: never a 500, nothing of it stored; answered as its numbers gone, to be sent again
    // (503 with Retry-After: the edge sends it again after a second), and that send is refused as its key is gone
    for (const x of [r, ...(l ? [l] : [])]) {
      expect(x.status, JSON.stringify(x.body)).toBe(503);
      expect(x.body.code).toBe('ingest.sendAgain');
    }
    expect(await storedOf(gone)).toBe(0);
    expect(await s.count('select 1 from edge_controllers where controller_id = $1', [gone.id])).toBe(0);
    expect(await s.count('select 1 from edge_seq_ahead where controller_id = $1', [gone.id])).toBe(0);
    expect(await presenceOf(a.person)).toEqual([]);
    expect(await doorStatus(a.door)).toBe(doorBefore);
    // its next send: 401, as any unknown key; the other controller goes on from where it was
    const later = await post(gone, [swipe(gone, 1, a)]);
    expect(later.status, JSON.stringify(later.body)).toBe(401);
    expect(later.body.code).toBe('apiKey.required');
    const next = await post(other, [swipe(other, otherFrom + 2, a)]);
    expect(next.body).toMatchObject({ accepted: 1, rejected: [], edgeLastSeq: otherFrom + 2 });
    expect(await storedOf(gone)).toBe(0);
  });

  it("a client's device key's batch naming it and another controller: all or nothing, then the deleted one's events refused alone", async () => {
    // a Device interface key of the client (bound to no controller) may send several controllers' events in a batch
    const made = await s.call('POST', serviceAccountsResource.api, {
      token: admin,
      body: { name: 'Deleted test devices', role: 'device-ingest', active: true },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const devices = { key: made.body.apiKey as string };
    const gone = await freshController();
    const { person, door, zone } = await personAndDoor();
    const otherFrom = (await lastSeq(other.id)) + 1;
    const plain = { controllerId: other.id, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-plain', message: `Deleted test ${other.id}:plain` };
    const held = await holdWriter(other);
    const queued = s.app.pipeline.backlog();
    const both = post(devices, [swipe(gone, 1, { person, door }), plain]);
    await until('its batch queued', () => s.app.pipeline.backlog() >= queued + 2);
    const theirs = post(other, [swipe(other, otherFrom, { person, door })]);
    await until('the other batch queued', () => s.app.pipeline.backlog() >= queued + 3);
    await deleteController(gone.id);
    await held.release();
    const [r, o] = [await both, await theirs];
    expect(o.status, JSON.stringify(o.body)).toBe(200);
    expect(o.body).toMatchObject({ accepted: 1, rejected: [], edgeLastSeq: otherFrom });
    expect(await presenceOf(person)).toEqual([zone]);
    // the batch naming the deleted controller: nothing of it stored, its other controller's event neither; sent again
    expect(r.status, JSON.stringify(r.body)).toBe(503);
    expect(r.body.code).toBe('ingest.sendAgain');
    expect(await storedOf(gone)).toBe(0);
    expect(await s.count('select 1 from events where message = $1', [plain.message])).toBe(0);
    // sent again: the deleted controller's event refused as an unknown controller's, the other stored
    const again = await post(devices, [swipe(gone, 1, { person, door }), plain]);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ accepted: 1, rejected: [{ index: 0, violations: [{ field: 'controllerId', code: 'ingest.notKnownController' }] }] });
    expect(await storedOf(gone)).toBe(0);
    expect(await s.count('select 1 from events where message = $1', [plain.message])).toBe(1);
  });

  it('deleted between its batch being admitted and its numbers row made: the last number reads 0, not a foreign key error (a 500)', async () => {
    const gone = Number((await s.db.query<{ id: number }>('select coalesce(max(id), 0) + 1000 id from controllers')).rows[0].id);
    expect(await edgeLastSeq(s.db, northwind, gone)).toBe(0);
    expect((await s.db.query('select 1 from edge_controllers where controller_id = $1', [gone])).rows).toEqual([]);
  });

  it('deleted while a transaction writes its numbers: the delete waits for the commit (no foreign key error, no deadlock)', async () => {
    // the pipeline's transaction holds the controllers whose numbers it writes, first (holdEdgeControllers), then notes a
    // live event ahead (a key share on edge_controllers) and moves the numbers (for no key update); the controller's
    // delete locks the controller, then its rows by cascade: one order, so it waits for the commit and then deletes them
    const gone = await freshController();
    await post(gone, [swipe(gone, 1, await personAndDoor())]); // its row of numbers made, one stored
    const order: string[] = [];
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const writing = s.db.transaction(async (tx) => {
      expect([...(await holdEdgeControllers(tx, [gone.id, other.id]))].sort()).toEqual([gone.id, other.id].sort());
      holding();
      await new Promise((r) => setTimeout(r, 300));
      await noteEdgeAhead(tx, [{ controllerId: gone.id, seq: 9 }]);
      expect(await advanceEdgeSeqs(tx, s.db.kind === 'postgres', new Map([[gone.id, [2, 2]]]))).toBe(1);
      order.push('written');
    });
    await held;
    const deleting = s.db.query('delete from controllers where id = $1', [gone.id]).then(() => order.push('deleted'));
    const both = await Promise.allSettled([writing, deleting]);
    expect(both.flatMap((x) => (x.status === 'rejected' ? [String(x.reason)] : []))).toEqual([]);
    expect(order).toEqual(['written', 'deleted']);
    expect(await s.count('select 1 from edge_controllers where controller_id = $1', [gone.id])).toBe(0);
    expect(await s.count('select 1 from edge_seq_ahead where controller_id = $1', [gone.id])).toBe(0);
    expect((await post(gone, [swipe(gone, 3, await personAndDoor())])).status).toBe(401);
  });
});
