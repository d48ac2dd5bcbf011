// The doors' live state (server/doors/liveState.ts) on the test server's real database (server/testkit.ts): which
// doors stand open for the interlocks, per tenant; who is inside which zone, written through before a grant's event
// and read again at a swipe, so a second server (or one restarted) decides from what any server last let that person
// do; Forgive and reset forget it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOOR_STATUSES } from '../../contract';
import type { Decision } from '../../contract/decision';
import { buildIndex } from '../access';
import { startTestServer, type TestServer } from '../testkit';
import { createDoorLiveState } from './liveState';

let s: TestServer;
let northwind: number;
let harbour: number;
let ada: number;
let zone: number;
let door: number;

beforeAll(async () => {
  s = await startTestServer();
  const one = async (sql: string, params: unknown[] = []) => Number((await s.db.query<{ id: number }>(sql, params)).rows[0].id);
  northwind = await one(`select id from clients where code = 'NORTHWIND'`);
  harbour = await one(`select id from clients where code = 'HARBOUR'`);
  ada = await one(`select id from identities where client_id = $1 order by id limit 1`, [northwind]);
  zone = await one(`insert into access_zones (client_id, name) values ($1, 'Live state test zone') returning id`, [northwind]);
  door = await one(`update doors set entry_zone_id = $2 where id = (select min(id) from doors where client_id = $1) returning id`, [northwind, zone]);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe("the doors' live state", () => {
  it('counts a door as standing open in an open status only, for its own tenant, and keeps the state when nothing changes', () => {
    const live = createDoorLiveState(s.db);
    live.doorStatus(northwind, 7, DOOR_STATUSES.forcedOpen);
    expect([...live.stateOf(northwind).openDoors]).toEqual([7]);
    expect(live.stateOf(harbour).openDoors.size).toBe(0);
    const before = live.stateOf(northwind);
    live.doorStatus(northwind, 7, DOOR_STATUSES.heldOpen); // still open: the same state, no new copy for the engine
    expect(live.stateOf(northwind)).toBe(before);
    for (const open of [DOOR_STATUSES.unlocked, DOOR_STATUSES.unlockedBriefly]) {
      live.doorStatus(northwind, 8, open);
      expect(live.stateOf(northwind).openDoors.has(8)).toBe(true);
      live.doorStatus(northwind, 8, DOOR_STATUSES.closed);
      expect(live.stateOf(northwind).openDoors.has(8)).toBe(false);
    }
    live.doorStatus(northwind, 7, DOOR_STATUSES.closed);
    expect(live.stateOf(northwind).openDoors.size).toBe(0);
  });

  it("writes a grant's presence through to the database, where another server reads it at the next swipe; Forgive and reset forget it", async () => {
    const a = createDoorLiveState(s.db);
    const b = createDoorLiveState(s.db); // a second server over the same database
    await a.ensurePresence(northwind);
    await b.ensurePresence(northwind);
    expect(b.stateOf(northwind).presence.has(ada)).toBe(false);
    const at = Date.parse('2026-12-01T08:00:00Z');
    const index = await buildIndex(s.db, northwind);
    await a.admitted(northwind, index, { doorId: door, side: 'entry', at, presented: { kind: 'card', number: '1' } }, granted(ada));
    expect(a.stateOf(northwind).presence.get(ada)).toEqual({ zoneId: zone, at });
    const row = await s.db.query<{ zone_id: number }>(`select zone_id from zone_presence where identity_id = $1`, [ada]);
    expect(row.rows.map((r) => Number(r.zone_id))).toEqual([zone]);
    // b still holds what it loaded, until the swipe reads the row again
    expect(b.stateOf(northwind).presence.has(ada)).toBe(false);
    await b.refreshPresence(northwind, ada);
    expect(b.stateOf(northwind).presence.get(ada)).toEqual({ zoneId: zone, at });
    // a server started afresh loads it with the tenant
    const c = createDoorLiveState(s.db);
    await c.ensurePresence(northwind);
    expect(c.stateOf(northwind).presence.get(ada)).toEqual({ zoneId: zone, at });
    expect(c.stateOf(harbour).presence.size).toBe(0);
    // Forgive: the caller deleted the row; memory follows, and a refresh does not bring it back
    a.forgiven(northwind, ada);
    expect(a.stateOf(northwind).presence.has(ada)).toBe(false);
    await a.reset(northwind);
    expect(await s.count(`select 1 from zone_presence where client_id = $1`, [northwind])).toBe(0);
    await b.refreshPresence(northwind, ada);
    expect(b.stateOf(northwind).presence.has(ada)).toBe(false);
  });

  it('records a grant in the presence map in place (no copy of everyone present per grant), and a denial not at all', async () => {
    const live = createDoorLiveState(s.db);
    await live.ensurePresence(northwind);
    const index = await buildIndex(s.db, northwind);
    const before = live.stateOf(northwind);
    const map = before.presence;
    const people = (await s.db.query<{ id: number }>(`select id from identities where client_id = $1 order by id limit 20`, [northwind])).rows.map((r) =>
      Number(r.id),
    );
    const at = Date.parse('2026-12-01T09:00:00Z');
    for (const [i, id] of people.entries())
      await live.admitted(northwind, index, { doorId: door, side: 'entry', at: at + i, presented: { kind: 'card', number: '1' } }, granted(id));
    // the same state and the same map, holding every grant: nothing was copied
    expect(live.stateOf(northwind)).toBe(before);
    expect(live.stateOf(northwind).presence).toBe(map);
    for (const [i, id] of people.entries()) expect(map.get(id)).toEqual({ zoneId: zone, at: at + i });
    await live.admitted(
      northwind,
      index,
      { doorId: door, side: 'entry', at: at + 100, presented: { kind: 'card', number: '1' } },
      { ...granted(people[0]), granted: false, reason: 'unknown-credential' },
    );
    expect(map.get(people[0])).toEqual({ zoneId: zone, at });
    await live.reset(northwind);
  });
});

/** A grant of the engine to `identityId` (what presenceAfter reads of it: granted and who). */
function granted(identityId: number): Decision {
  return { granted: true, reason: 'granted', identityId, credentialId: null, accessGroupIds: [], alarm: null, steps: [] } as unknown as Decision;
}
