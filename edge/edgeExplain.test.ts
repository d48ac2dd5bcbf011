// Gatehouse Edge against the real server (issue 47), the console's side of an offline edge:
// - "Why?" of a swipe decided offline explains it from the snapshot it was decided with (its version, when the server
//   built it, the chain the edge's engine ran), beside the same swipe decided again with today's rules;
// - the Controllers list's snapshot is the one the edge applied, with when the server built it (its real age), kept
//   across a reconnect that changes nothing;
// - while the edge is offline, its doors in a zone of hard anti-passback are soft: its Interface offline alarm names
//   them, the Controllers row counts them, and the doors list and the zone's row say so.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EDGE_CONNECT_PATH, EVENT_CODES, controllersResource, doorsResource } from '../contract';
import { EMPTY_STATE, decide } from '../access/engine';
import { startTestServer, type TestServer } from '../server/testkit';
import { edgeOfFirstController, proxyTo, until, type EdgeFixture } from './testPeers';

let s: TestServer;
let f: EdgeFixture;
let admin: string;
let harbourAdmin: string;
let northwind: number;
let controller: number;
let key: string;
let door: number;

const GROUPS = '/event/manage/access-groups';
const SCHEDULES = '/event/manage/schedules';
const ZONES = '/event/manage/access-zones';
/** Northwind is in Asia/Kuala_Lumpur (UTC+8); 2026-11-24 is a Tuesday. */
const local = (hhmm: string, day = '2026-11-24') => Date.parse(`${day}T${hhmm}:00+08:00`);

beforeAll(async () => {
  s = await startTestServer();
  f = await edgeOfFirstController(s);
  ({ northwind, admin, controller, door, key } = f);
  harbourAdmin = await s.login('harbour');
}, 60_000);

afterAll(async () => {
  await (f ? f.close() : s?.close());
});

/** An edge of the controller on a proxy the test cuts and restores; `done` stops both. */
async function proxiedEdge() {
  const proxy = await proxyTo(Number(new URL(s.base).port));
  const edge = f.edge({ server: proxy.url(), dataDir: f.dataDir('gatehouse-edge-why-') });
  return {
    proxy,
    edge,
    done() {
      edge.stop();
      proxy.close();
    },
  };
}

const row = async () => (await s.call('GET', `${controllersResource.api}/${controller}`, { token: admin })).body;

/** Every group of the card's identity that opens `door`: its schedule there set to `scheduleId` (or back). */
async function scheduleAt(groups: number[], scheduleId: (was: number, group: number) => number) {
  for (const g of groups) {
    const group = (await s.call('GET', `${GROUPS}/${g}`, { token: admin })).body;
    if (!group.doors?.some((x: any) => x.doorId === door)) continue;
    const put = await s.call('PUT', `${GROUPS}/${g}`, {
      token: admin,
      body: {
        name: group.name,
        description: group.description,
        doors: group.doors.map((x: any) => (x.doorId === door ? { ...x, scheduleId: scheduleId(x.scheduleId, g) } : x)),
        members: group.members,
        updatedAt: group.updatedAt,
      },
    });
    expect(put.status).toBe(200);
  }
}

describe('an offline edge on the console', () => {
  it('the snapshot the edge applied and when the server built it; the same after a reconnect that changes nothing; a bad applied is refused', async () => {
    const { proxy, edge, done } = await proxiedEdge();
    try {
      const held = await until('a snapshot', () => edge.link.online && edge.store.held);
      const builtAt = held.builtAt;
      expect(builtAt).toBeLessThanOrEqual(Date.now());
      const first = await until('the applied version and its build time on the list', async () => {
        const r = await row();
        return r.edgeApplied === held.version && r.edgeBuiltAt ? r : null;
      });
      expect(first).toMatchObject({ edgeSnapshot: held.version, edgeState: 'online' });
      expect(Date.parse(first.edgeBuiltAt)).toBe(builtAt);
      expect(Date.parse(first.edgeAppliedAt)).toBeGreaterThanOrEqual(builtAt - 1000);
      expect(first.edge).toContain(`, snapshot built ${new Date(builtAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
      // the link cut and back a while later: the same snapshot (same hash), so the same version and the same build time,
      // not the moment it was sent again
      await proxy.cut();
      await until('offline', () => !edge.link.online);
      await new Promise((r) => setTimeout(r, 1100));
      await proxy.restore();
      await until('online again', () => edge.link.online);
      await new Promise((r) => setTimeout(r, 300));
      expect(edge.store.held).toMatchObject({ version: held.version, builtAt });
      const again = await row();
      expect(Date.parse(again.edgeBuiltAt)).toBe(builtAt);
      expect(again.edgeAppliedAt).toBe(first.edgeAppliedAt); // applied when it first was, not again at each reconnect
      // an applied message checked by its schema: a bad builtAt is answered with its field, nothing changed
      const ws = new WebSocket(s.base.replace(/^http/, 'ws') + EDGE_CONNECT_PATH, { headers: { authorization: `Bearer ${key}` } });
      const heard: any[] = [];
      ws.on('message', (d) => heard.push(JSON.parse(d.toString())));
      await until('welcomed', () => heard.some((m) => m.type === 'snapshot'));
      ws.send(JSON.stringify({ type: 'applied', version: held.version, builtAt: 'yesterday' }));
      const err = await until('an error naming the field', () => heard.find((m) => m.type === 'error'));
      expect(err.field).toBe('builtAt');
      ws.close();
      expect(Date.parse((await row()).edgeBuiltAt)).toBe(builtAt);
      // another client's administrator does not see the controller
      expect((await s.call('GET', `${controllersResource.api}/${controller}`, { token: harbourAdmin })).status).toBe(404);
    } finally {
      done();
    }
  });

  it('offline, its hard anti-passback doors are said soft (the offline alarm, the Controllers row); Why? of an offline deny explains it from the snapshot it used', async () => {
    // the door in a zone of hard anti-passback
    const zone = await s.call('POST', ZONES, { token: admin, body: { name: 'Edge hard zone', antiPassback: 'hard', forgiveMinutes: 0 } });
    expect(zone.status).toBe(201);
    const d = (await s.call('GET', `${doorsResource.api}/${door}`, { token: admin })).body;
    const body = Object.fromEntries(Object.keys(doorsResource.fields).map((f) => [f, d[f] ?? null]));
    expect((await s.call('PUT', `${doorsResource.api}/${door}`, { token: admin, body: { ...body, entryZoneId: zone.body.id } })).status).toBe(200);

    const { proxy, edge, done } = await proxiedEdge();
    try {
      await until('the door in its zone at the edge', () => edge.link.online && edge.store.held?.snapshot.doors.find((x) => x.id === door)?.entryZoneId);
      expect((await row()).edgeSoftApb).toBe(1);
      // online: hard as it is set
      const softSaid = async () => ({
        door: (await s.call('GET', `${API.doors}?size=500`, { token: admin })).body.items.find((x: { id: number }) => x.id === door).softApb,
        zone: await s
          .call('GET', `${ZONES}/${zone.body.id}`, { token: admin })
          .then(({ body: z }) => ({ edgeSoftDoors: z.edgeSoftDoors, edgeSoftControllers: z.edgeSoftControllers })),
      });
      expect(await softSaid()).toEqual({ door: null, zone: { edgeSoftDoors: 0, edgeSoftControllers: null } });
      // a card the server grants at 18:30; its groups' schedule at the door moved to 08:00–18:00: denied there
      const index = await s.app.simulator.access.get(northwind);
      const at = local('18:30');
      const card = [...index.credentials.keys()].find((c) => decide(index, EMPTY_STATE, { doorId: door, at, presented: { kind: 'card', number: c } }).granted)!;
      expect(card).toBeTruthy();
      const groups = [...index.groupsOf.get(index.credentials.get(card)!.identityId)!];
      const day = await s.call('POST', SCHEDULES, {
        token: admin,
        body: { name: 'Edge why day', windows: [0, 1, 2, 3, 4, 5, 6].map((x) => ({ day: String(x), start: '08:00', end: '18:00' })), specialWindows: [] },
      });
      expect(day.status).toBe(201);
      const was = new Map<number, number>(); // group → its schedule at the door before
      const before = edge.store.held!.version;
      await scheduleAt(groups, (x, g) => {
        was.set(g, x);
        return day.body.id;
      });
      const used = await until('the day schedule at the edge', () => (edge.store.held!.version > before ? edge.store.held : null), 5000);

      // the link gone: past the grace, the offline alarm says the door's anti-passback is soft, and so does its row
      await proxy.cut();
      await until('offline', () => !edge.link.online);
      const alarm = await until(
        'the Interface offline alarm',
        async () =>
          (
            await s.db.query<{ message: string; message_code: string; message_values: Record<string, unknown> }>(
              'select message, message_code, message_values from events where event_code = $1 and event_source_id = $2 order by id desc limit 1',
              [EVENT_CODES.interfaceOffline, `iface-${controller}`],
            )
          ).rows[0],
        15_000,
      );
      expect(alarm.message).toContain(`anti-passback is soft at ${d.name} until it reconnects`);
      // issue 48: said with its key and values, the doors a value of their own
      expect(alarm).toMatchObject({ message_code: 'event.edgeLinkLostSoftApb', message_values: { doors: d.name } });
      const off = await row();
      expect(off).toMatchObject({ edgeState: 'offline', edgeSoftApb: 1 });
      // and so do the door on the doors screen's list and its zone on the zones list, until it reconnects
      expect(await softSaid()).toEqual({ door: { controllers: off.name, since: off.edgeSince }, zone: { edgeSoftDoors: 1, edgeSoftControllers: off.name } });

      // offline at 18:30: denied by the snapshot it holds (outside schedule)
      const out = edge.swipe({ doorId: door, card, at, side: 'entry' });
      expect(out.mode).toBe('offline');
      expect(out.decision).toMatchObject({ granted: false, reason: 'outside-schedule' });
      // meanwhile the server's rules go back: today's would grant it
      await scheduleAt(groups, (_, g) => was.get(g)!);
      await until(
        'the server’s rules back',
        async () => decide(await s.app.simulator.access.get(northwind), EMPTY_STATE, { doorId: door, at, presented: { kind: 'card', number: card } }).granted,
      );
      await proxy.restore();
      const seq = out.entries[0].seq;
      const ev = await until('the offline swipe on the server', async () => {
        const r = await s.db.query<{ id: string }>(
          `select id from events where client_id = $1 and (swipe->'edge'->>'seq')::int = $2 and event_source_id = $3`,
          [northwind, seq, `reader-${door}`],
        );
        return r.rows[0];
      });
      const why = await s.call('GET', `${API.events}/${ev.id}/explain`, { token: admin });
      expect(why.status).toBe(200);
      // as it was decided at the edge, offline, from the snapshot it held then
      expect(why.body.edge).toMatchObject({
        offline: true,
        snapshotVersion: used.version,
        snapshotBuiltAt: new Date(used.builtAt).toISOString(),
        decided: { granted: false, reason: 'outside-schedule', label: 'Access denied: outside schedule' },
      });
      const steps = why.body.edge.decided.steps;
      expect(steps).toEqual(out.decision.steps);
      expect(steps.at(-1)).toMatchObject({ check: 'schedule', ok: false });
      expect(steps.at(-1).detail).toContain('08:00–18:00');
      // and today's rules beside it: granted now
      expect(why.body.now).toMatchObject({ granted: true, reason: 'granted' });
      // the row online again: no soft anti-passback said, on the door and its zone neither
      await until('online again', async () => (await row()).edgeState === 'online');
      expect(await softSaid()).toEqual({ door: null, zone: { edgeSoftDoors: 0, edgeSoftControllers: null } });
      // another client's administrator gets 404
      expect((await s.call('GET', `${API.events}/${ev.id}/explain`, { token: harbourAdmin })).status).toBe(404);
    } finally {
      done();
    }
  });

  it('an edge event whose chain is not the engine’s is refused naming the field, nothing stored', async () => {
    const res = await s.call('POST', API.deviceEvents, {
      headers: { authorization: `Bearer ${key}` },
      body: {
        events: [
          {
            controllerId: controller,
            eventCode: 5001,
            sourceId: `reader-${door}`,
            sourceName: 'x',
            message: 'Access denied: unknown credential',
            edge: {
              seq: 999_999,
              occurredAt: Date.now(),
              offline: true,
              snapshotVersion: 1,
              decided: {
                identityId: null,
                decision: 'denied',
                reason: 'unknown-credential',
                card: '1',
                doorId: door,
                side: 'entry',
                steps: [{ check: 'horoscope', ok: false, detail: 'x' }],
              },
            },
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.accepted ?? 0).toBe(0);
    expect(JSON.stringify(res.body.rejected)).toContain('edge.decided.steps.0.check');
  });
});
