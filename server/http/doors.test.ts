// Doors on the server: the list is the selected client's only (division names, last state change), door control
// needs 0.4.5.4, an unknown or foreign door is 404, a bad command is 400 — and a refused call changes nothing
// (status, events, audit, heart-beats). A good command changes the door, persists its event, audits it and
// publishes the new state on /hbdoor to that tenant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DESTINATIONS, EVENT_CODES, SOCKJS_PREFIX } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { connected, waitFor, type TestClient } from '../realtime/testkit';

let s: TestServer;
let operator: string, auditor: string, reception: string, harbour: string;
let northwind: number, harbourId: number;
const consoles: TestClient[] = [];

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [operator, auditor, reception, harbour] = await Promise.all(['operator', 'auditor', 'reception', 'harbour'].map((u) => s.login(u)));
  const ids = await s.db.query<{ code: string; id: number }>(`select code, id from clients`);
  northwind = Number(ids.rows.find((r) => r.code === 'NORTHWIND')!.id);
  harbourId = Number(ids.rows.find((r) => r.code === 'HARBOUR')!.id);
});
afterAll(async () => {
  for (const c of consoles) await c.client.deactivate({ force: true });
  await s?.close();
});

const doorOf = async (clientId: number, n = 0) => Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id offset $2 limit 1', [clientId, n])).rows[0].id);
/** Everything a refused command must leave alone. */
async function footprint(doorId: number) {
  const status = (await s.db.query<{ status: string }>('select status from doors where id = $1', [doorId])).rows[0].status;
  return {
    status,
    events: await s.count('select 1 from events where event_source_id = $1', [`door-${doorId}`]),
    audit: await s.count(`select 1 from audit_log where entity = 'door' and entity_id = $1`, [String(doorId)]),
  };
}
const command = (token: string, doorId: number | string, body: unknown) => s.call('POST', `${API.doors}/${doorId}/commands`, { token, body });

/** A console of `token`'s tenant listening to /hbdoor (receipt awaited, so nothing published after is missed). */
async function heartbeats(token: string) {
  const c = await connected(`${s.base}${SOCKJS_PREFIX.event}`, token);
  consoles.push(c);
  let subscribed = false;
  c.client.watchForReceipt('r-hbdoor', () => { subscribed = true; });
  c.subscribe(DESTINATIONS.doorHeartbeat, { receipt: 'r-hbdoor' });
  await waitFor(() => subscribed, 'receipt /hbdoor');
  return () => c.messages.filter((m) => m.headers.destination === DESTINATIONS.doorHeartbeat).map((m) => JSON.parse(m.body));
}

describe('the doors list', () => {
  it('shows the selected client its own doors only, with division names', async () => {
    const nw = await s.call('GET', API.doors, { token: operator });
    const hh = await s.call('GET', API.doors, { token: harbour });
    expect(nw.status).toBe(200);
    expect(hh.status).toBe(200);
    const own = (await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id', [northwind])).rows.map((r) => Number(r.id));
    expect(nw.body.items.map((d: any) => d.id)).toEqual(own);
    expect(nw.body.total).toBe(own.length);
    const theirs = new Set(hh.body.items.map((d: any) => d.id));
    expect(hh.body.items.length).toBeGreaterThan(0);
    expect(nw.body.items.some((d: any) => theirs.has(d.id))).toBe(false);
    const divisions = new Map((await s.db.query<{ id: number; name: string }>('select id, name from divisions where client_id = $1', [northwind])).rows.map((r) => [Number(r.id), r.name]));
    for (const d of nw.body.items) {
      expect(d).toMatchObject({ name: expect.any(String), status: expect.any(String) });
      expect(d.divisionName).toBe(d.divisionId === null ? null : divisions.get(d.divisionId));
    }
  });

  it('needs a door privilege: an auditor may look, a receptionist may not', async () => {
    expect((await s.call('GET', API.doors, { token: auditor })).status).toBe(200);
    expect((await s.call('GET', API.doors, { token: reception })).status).toBe(403);
    expect((await s.call('GET', API.doors)).status).toBe(401);
  });

  it('gives the time of the latest state change, and none for a door that never changed', async () => {
    const door = await doorOf(northwind, 5);
    const before = (await s.call('GET', API.doors, { token: operator })).body.items.find((d: any) => d.id === door);
    expect(before.lastChangedAt).toBeNull();
    const held = await s.call('POST', API.testSimulate, { token: operator, body: { kind: 'door.held', doorId: door } });
    expect(held.status).toBe(200);
    // a swipe at the door's reader is no state change
    await s.call('POST', API.testSimulate, { token: operator, body: { kind: 'card.granted', doorId: door } });
    const after = (await s.call('GET', API.doors, { token: operator })).body.items.find((d: any) => d.id === door);
    expect(after).toMatchObject({ status: 'held-open', lastChangedAt: held.body.time });
    // a command (on the strike output point) is one, and the later one wins
    const locked = await command(operator, door, { command: 'lock' });
    const latest = (await s.call('GET', API.doors, { token: operator })).body.items.find((d: any) => d.id === door);
    expect(latest).toMatchObject({ status: 'locked', lastChangedAt: locked.body.time });
  });
});

describe('door commands', () => {
  it('refuse a user without door control (403) and change nothing', async () => {
    const door = await doorOf(northwind, 0);
    const was = await footprint(door);
    for (const token of [auditor, reception]) {
      const r = await command(token, door, { command: 'unlock' });
      expect(r.status).toBe(403);
    }
    expect(await footprint(door)).toEqual(was);
  });

  it('answer 404 for an unknown door or another client\'s door, changing nothing', async () => {
    const foreign = await doorOf(harbourId, 0);
    const was = await footprint(foreign);
    expect((await command(operator, 999999, { command: 'unlock' })).status).toBe(404);
    expect((await command(operator, 'abc', { command: 'unlock' })).status).toBe(404);
    const r = await command(operator, foreign, { command: 'unlock' });
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/door not found/i);
    expect(await footprint(foreign)).toEqual(was);
  });

  it('answer 400 naming the field for a bad command, changing nothing', async () => {
    const door = await doorOf(northwind, 3);
    const was = await footprint(door);
    for (const body of [{ command: 'explode' }, {}, { command: 'unlock', extra: 1 }, { command: 42 }, ['unlock']]) {
      const r = await command(operator, door, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(r.body), JSON.stringify(body)).toMatch(/command|extra|object/);
    }
    const raw = await s.call('POST', `${API.doors}/${door}/commands`, { token: operator, raw: '{"command":' });
    expect(raw.status).toBe(400);
    expect(await footprint(door)).toEqual(was);
  });

  it('unlock and lock change the door, persist and audit the event, and publish the state to the tenant only', async () => {
    const door = await doorOf(northwind, 6);
    const nwBeats = await heartbeats(operator);
    const hhBeats = await heartbeats(harbour);
    const was = await footprint(door);

    const r = await command(operator, door, { command: 'unlock' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ eventCode: EVENT_CODES.doorUnlocked, eventSourceId: `door-${door}`, eventPointId: `output-${door}` });
    expect(r.body.message).toMatch(/by operator/);
    expect(await s.count('select 1 from events where id = $1 and client_id = $2 and event_code = $3', [r.body.id, northwind, EVENT_CODES.doorUnlocked])).toBe(1);
    expect(await footprint(door)).toEqual({ status: 'unlocked', events: was.events + 1, audit: was.audit + 1 });
    expect(await s.count(`select 1 from audit_log where entity = 'door' and entity_id = $1 and action = 'unlock' and actor = 'operator' and client_id = $2`, [String(door), northwind])).toBe(1);
    await waitFor(() => nwBeats().find((b) => b.id === door && b.doorStatus === 'unlocked'), '/hbdoor unlocked');
    expect((await s.call('GET', API.doors, { token: auditor })).body.items.find((d: any) => d.id === door).status).toBe('unlocked');

    const l = await command(operator, door, { command: 'lock' });
    expect(l.body.eventCode).toBe(EVENT_CODES.doorLocked);
    await waitFor(() => nwBeats().find((b) => b.id === door && b.doorStatus === 'locked'), '/hbdoor locked');
    expect(await footprint(door)).toEqual({ status: 'locked', events: was.events + 2, audit: was.audit + 2 });
    expect(hhBeats().some((b) => b.id === door)).toBe(false);
  });

  it('momentary unlock opens the door and says so', async () => {
    const door = await doorOf(northwind, 7);
    const r = await command(operator, door, { command: 'momentary-unlock' });
    expect(r.status).toBe(200);
    expect(r.body.eventCode).toBe(EVENT_CODES.doorMomentaryUnlock);
    expect((await footprint(door)).status).toBe('unlocked');
  });
});
