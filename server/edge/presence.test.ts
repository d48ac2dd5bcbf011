// Who is where, as an edge let them through (issue 47): a batch's granted swipes move each identity's presence in one
// statement (server/db/queries/edgeIngest.ts movePresence), the latest swipe of each identity winning, even when the
// batch names the same identity several times and out of time order; a swipe older than the presence stored changes
// nothing; and "Why?" of an offline edge swipe says when it reached the server: the stored event's own time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, controllersResource } from '../../contract';
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
