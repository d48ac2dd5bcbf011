// Doors on the server: the list is the selected client's only (division names, last state change), door control
// needs 0.4.5.4, an unknown or foreign door is 404, a bad command is 400, a command that makes no sense for the
// door's state is 409 unless forced — and a refused call changes nothing (status, events, audit, heart-beats). A good
// command changes the door, persists its event, audits it and publishes the new state on /hbdoor to that tenant.
// Issue 10: the last command wins over the relock a momentary unlock is waiting for (the simulator's relock timers
// run on a SimulatedClock here, so time moves without waiting).
import { SimulatedClock } from 'xstate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DESTINATIONS, DOOR_MOMENTARY_MS, EVENT_CODES, Event, Refusal, SOCKJS_PREFIX, threatLevelsResource, validate } from '../../contract';
import type { HardwareSimulator } from '../simulator/hardware';
import { startTestServer, type TestServer } from '../testkit';
import { connected, waitFor, type TestClient } from '../realtime/testkit';

let s: TestServer;
let operator: string, auditor: string, reception: string, harbour: string;
let northwind: number, harbourId: number;
const consoles: TestClient[] = [];
const clock = new SimulatedClock();
/** The server's hardware simulator (awaiting the Fastify instance loses buildServer's added fields from its type). */
const simulator = () => (s.app as unknown as { simulator: HardwareSimulator }).simulator;

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  simulator().useClock(clock);
  [operator, auditor, reception, harbour] = await Promise.all(['operator', 'auditor', 'reception', 'harbour'].map((u) => s.login(u)));
  const ids = await s.db.query<{ code: string; id: number }>(`select code, id from clients`);
  northwind = Number(ids.rows.find((r) => r.code === 'NORTHWIND')!.id);
  harbourId = Number(ids.rows.find((r) => r.code === 'HARBOUR')!.id);
});
afterAll(async () => {
  for (const c of consoles) await c.client.deactivate({ force: true });
  await s?.close();
});

const doorOf = async (clientId: number, n = 0) =>
  Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id offset $2 limit 1', [clientId, n])).rows[0].id);
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
  c.client.watchForReceipt('r-hbdoor', () => {
    subscribed = true;
  });
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
    const divisions = new Map(
      (await s.db.query<{ id: number; name: string }>('select id, name from divisions where client_id = $1', [northwind])).rows.map((r) => [
        Number(r.id),
        r.name,
      ]),
    );
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

  it("answer 404 for an unknown door or another client's door, changing nothing", async () => {
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
    expect(await s.count('select 1 from events where id = $1 and client_id = $2 and event_code = $3', [r.body.id, northwind, EVENT_CODES.doorUnlocked])).toBe(
      1,
    );
    expect(await footprint(door)).toEqual({ status: 'unlocked', events: was.events + 1, audit: was.audit + 1 });
    // issue 48: its message is a sentence with its key and values, stored and answered beside the English (the
    // command's answer and the history, as the contract's Event says)
    const said = { messageCode: 'event.atDoorBy', messageValues: { event: 'Door unlocked', door: r.body.eventSourceName, actor: 'operator' } };
    expect(r.body).toMatchObject({ message: `Door unlocked at ${r.body.eventSourceName} by operator`, ...said });
    const history = await s.call('GET', `${API.events}?size=5&sort=id,desc`, { token: operator });
    const stored = history.body.items.find((e: any) => e.id === r.body.id);
    expect(stored).toMatchObject({ message: r.body.message, ...said });
    expect(validate(stored, Event).ok).toBe(true);
    expect(
      await s.count(`select 1 from audit_log where entity = 'door' and entity_id = $1 and action = 'unlock' and actor = 'operator' and client_id = $2`, [
        String(door),
        northwind,
      ]),
    ).toBe(1);
    await waitFor(() => nwBeats().find((b) => b.id === door && b.doorStatus === 'unlocked'), '/hbdoor unlocked');
    expect((await s.call('GET', API.doors, { token: auditor })).body.items.find((d: any) => d.id === door).status).toBe('unlocked');

    const l = await command(operator, door, { command: 'lock' });
    expect(l.body.eventCode).toBe(EVENT_CODES.doorLocked);
    await waitFor(() => nwBeats().find((b) => b.id === door && b.doorStatus === 'locked'), '/hbdoor locked');
    expect(await footprint(door)).toEqual({ status: 'locked', events: was.events + 2, audit: was.audit + 2 });
    expect(hhBeats().some((b) => b.id === door)).toBe(false);
  });

  it('momentary unlock opens the door and says so, then relocks it by itself when its time is up', async () => {
    const door = await doorOf(northwind, 7);
    const r = await command(operator, door, { command: 'momentary-unlock' });
    expect(r.status).toBe(200);
    expect(r.body.eventCode).toBe(EVENT_CODES.doorMomentaryUnlock);
    expect((await footprint(door)).status).toBe('unlocked-briefly');
    await advance(DOOR_MOMENTARY_MS - 1);
    expect((await footprint(door)).status).toBe('unlocked-briefly');
    await advance(1);
    expect(await statusOf(door)).toBe('locked');
    expect(await relocks(door)).toBe(1);
  });
});

/** Moves the relock timers' clock and waits until what fired has finished. */
async function advance(ms: number) {
  clock.increment(ms);
  await simulator().settled();
}
const statusOf = async (doorId: number) => (await s.call('GET', API.doors, { token: operator })).body.items.find((d: any) => d.id === doorId).status;
const relocks = (doorId: number) =>
  s.count(`select 1 from events where event_point_id = $1 and event_code = $2 and message like '%(relocked)'`, [`output-${doorId}`, EVENT_CODES.doorLocked]);
/** A door of Northwind in a known state, with no relock pending. */
async function doorIn(n: number, status: 'locked' | 'unlocked' | 'closed') {
  const door = await doorOf(northwind, n);
  await s.db.query('update doors set status = $2 where id = $1', [door, status]);
  return door;
}

describe('the last operator command wins over a pending momentary relock (issue 10)', () => {
  it('Unlock after Open briefly keeps the door unlocked past the momentary time', async () => {
    const door = await doorIn(0, 'locked');
    expect((await command(operator, door, { command: 'momentary-unlock' })).status).toBe(200);
    await advance(DOOR_MOMENTARY_MS / 2);
    expect((await command(operator, door, { command: 'unlock' })).status).toBe(200);
    await advance(DOOR_MOMENTARY_MS * 2);
    expect(await statusOf(door)).toBe('unlocked');
    expect((await footprint(door)).status).toBe('unlocked');
    expect(await relocks(door)).toBe(0);
  });

  it('Lock after Open briefly stays locked, with no relock recorded later', async () => {
    const door = await doorIn(1, 'locked');
    await command(operator, door, { command: 'momentary-unlock' });
    const locked = await command(operator, door, { command: 'lock' });
    expect(locked.status).toBe(200);
    await advance(DOOR_MOMENTARY_MS * 2);
    expect(await statusOf(door)).toBe('locked');
    expect(await relocks(door)).toBe(0);
    // the operator's lock is the door's last command event
    const last = await s.db.query<{ id: string }>('select id from events where event_point_id = $1 order by id desc limit 1', [`output-${door}`]);
    expect(Number(last.rows[0].id)).toBe(locked.body.id);
  });

  it('Open briefly twice restarts the time: the door relocks once, a full moment after the second', async () => {
    const door = await doorIn(2, 'locked');
    await command(operator, door, { command: 'momentary-unlock' });
    await advance(DOOR_MOMENTARY_MS - 1000);
    expect((await command(operator, door, { command: 'momentary-unlock' })).status).toBe(200);
    await advance(1000); // the first one's time is up: no relock
    expect(await statusOf(door)).toBe('unlocked-briefly');
    await advance(DOOR_MOMENTARY_MS - 1001);
    expect(await statusOf(door)).toBe('unlocked-briefly');
    await advance(1);
    expect(await statusOf(door)).toBe('locked');
    expect(await relocks(door)).toBe(1);
  });

  it('two operators racing: commands of one door apply in arrival order, the later is refused when it no longer makes sense', async () => {
    const door = await doorIn(3, 'unlocked');
    const second = await s.login('operator'); // another console of another operator on the same door
    const [a, b] = await Promise.all([command(operator, door, { command: 'lock' }), command(second, door, { command: 'lock' })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.message).toBe('Car Park Gate is already locked.');
    expect(await s.count('select 1 from events where event_point_id = $1 and event_code = $2', [`output-${door}`, EVENT_CODES.doorLocked])).toBe(1);

    // Open briefly and Unlock at once, in whichever order they arrive: Unlock wins either way. Taken first, Open
    // briefly is cancelled by the Unlock after it; taken second, it is refused, since the door is already unlocked
    const [m, u] = await Promise.all([command(operator, door, { command: 'momentary-unlock' }), command(second, door, { command: 'unlock' })]);
    expect(u.status).toBe(200);
    if (m.status === 200) expect(m.body.id).toBeLessThan(u.body.id);
    else expect(m.status).toBe(409);
    await advance(DOOR_MOMENTARY_MS);
    expect(await statusOf(door)).toBe('unlocked');
    expect(await relocks(door)).toBe(0);
  });

  it('a relock does not hide a door held open meanwhile', async () => {
    const door = await doorIn(4, 'locked');
    await command(operator, door, { command: 'momentary-unlock' });
    await s.call('POST', API.testSimulate, { token: operator, body: { kind: 'door.held', doorId: door } });
    await advance(DOOR_MOMENTARY_MS);
    expect(await relocks(door)).toBe(1);
    expect(await statusOf(door)).toBe('held-open');
  });

  it('the test hook fast-forwards the pending relocks, and finds none after a later Unlock', async () => {
    const door = await doorIn(8, 'locked');
    await command(operator, door, { command: 'momentary-unlock' });
    const early = await s.call('POST', API.testDoorsFastForward, { token: operator, body: { ms: DOOR_MOMENTARY_MS - 1 } });
    expect(early.body).toEqual({ relocked: 0 });
    const due = await s.call('POST', API.testDoorsFastForward, { token: operator, body: { ms: DOOR_MOMENTARY_MS } });
    expect(due.body).toEqual({ relocked: 1 });
    expect(await statusOf(door)).toBe('locked');

    await command(operator, door, { command: 'momentary-unlock' });
    await command(operator, door, { command: 'unlock' });
    expect((await s.call('POST', API.testDoorsFastForward, { token: operator, body: { ms: DOOR_MOMENTARY_MS } })).body).toEqual({ relocked: 0 });
    expect(await statusOf(door)).toBe('unlocked');
  });
});

describe("door commands follow the door's state", () => {
  it('refuse with 409 and the reason what makes no sense for the state, changing nothing', async () => {
    const cases: [string, string, string][] = [
      ['locked', 'lock', 'is already locked.'],
      ['unlocked', 'unlock', 'is already unlocked.'],
      ['unlocked', 'momentary-unlock', 'is unlocked until someone locks it: lock it instead.'],
      ['forced-open', 'unlock', 'is forced open: send someone to secure it first.'],
      ['forced-open', 'lock', 'is forced open while its lock reports locked; lock it again only to re-send the command.'],
      ['held-open', 'momentary-unlock', 'is held open already.'],
      ['offline', 'lock', 'is offline: no command reaches it until it is back.'],
      ['tamper', 'unlock', 'reports tampering: keep it locked until it is checked.'],
    ];
    const door = await doorOf(northwind, 9);
    for (const [status, cmd, reason] of cases) {
      await s.db.query('update doors set status = $2 where id = $1', [door, status]);
      const was = await footprint(door);
      const r = await command(operator, door, { command: cmd });
      expect(r.status, `${cmd} on ${status}`).toBe(409);
      expect(r.body).toMatchObject({ status: 409, error: 'Conflict', message: `Finance Vault ${reason}` });
      // issue 48: the sentence's key and values beside the English, as the contract's Refusal says
      expect(r.body).toMatchObject({ code: expect.stringMatching(/^door\./), values: { door: 'Finance Vault' } });
      expect(validate(r.body, Refusal).ok).toBe(true);
      expect(await footprint(door)).toEqual(was);
    }
  });

  it('carry out what makes sense: open or unlock a locked door, lock an unlocked, held-open or tampered one', async () => {
    const door = await doorOf(northwind, 9);
    for (const [status, cmd, after] of [
      ['locked', 'momentary-unlock', 'unlocked-briefly'],
      ['locked', 'unlock', 'unlocked'],
      ['unlocked', 'lock', 'locked'],
      ['held-open', 'lock', 'locked'],
      ['tamper', 'lock', 'locked'],
      ['closed', 'unlock', 'unlocked'],
      ['unlocked-briefly', 'unlock', 'unlocked'],
    ]) {
      await s.db.query('update doors set status = $2 where id = $1', [door, status]);
      const r = await command(operator, door, { command: cmd });
      expect(r.status, `${cmd} on ${status}`).toBe(200);
      expect((await footprint(door)).status).toBe(after);
    }
    await advance(DOOR_MOMENTARY_MS); // nothing left pending for other tests
  });

  it('force: true sends it anyway, and says so in the event and the audit trail', async () => {
    const door = await doorOf(northwind, 9);
    await s.db.query('update doors set status = $2 where id = $1', [door, 'forced-open']);
    const was = await footprint(door);
    const r = await command(operator, door, { command: 'lock', force: true });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Door locked at Finance Vault by operator (forced)');
    expect(await footprint(door)).toEqual({ status: 'locked', events: was.events + 1, audit: was.audit + 1 });
    expect(
      await s.count(`select 1 from audit_log where entity = 'door' and entity_id = $1 and action = 'lock' and (after->>'force')::boolean`, [String(door)]),
    ).toBe(1);
    expect((await command(operator, door, { command: 'lock', force: 'yes' })).status).toBe(400);
  });
});

describe('a threat level that holds the doors locked (issue 29)', () => {
  it("marks the doors it holds in the list, by the engine's rule, and refuses all but Lock with 409 and the reason", async () => {
    const admin = (await s.call('PUT', API.meClient, { token: await s.login('admin'), body: { clientId: northwind } })).body.token as string;
    const CURRENT = `${threatLevelsResource.api}/current`;
    const used = new Set(
      (await s.db.query<{ rank: number }>('select rank from threat_levels where client_id = $1', [northwind])).rows.map((r) => Number(r.rank)),
    );
    const rank = [...Array(99).keys()].map((i) => i + 1).find((r) => !used.has(r))!;
    const level = await s.call('POST', threatLevelsResource.api, {
      token: admin,
      body: { name: 'NC1 Red', rank, mode: 'locked', exemptGroupIds: [], description: null },
    });
    expect(level.status).toBe(201);
    const list = async (token = operator) =>
      (await s.call('GET', API.doors, { token })).body.items as { id: number; name: string; mode: string; divisionId: number; heldBy: unknown }[];
    const before = await list();
    expect(before.every((d) => d.heldBy === null)).toBe(true);

    // set for one site: the doors of its division (and those inside it) are held, the rest not
    const divisions = (
      await s.db.query<{ id: number; parent_id: number | null }>('select id, parent_id from divisions where client_id = $1', [northwind])
    ).rows.map((r) => ({ id: Number(r.id), parent: r.parent_id === null ? null : Number(r.parent_id) }));
    const below = (root: number): number[] => [root, ...divisions.filter((d) => d.parent === root).flatMap((d) => below(d.id))];
    const site = before.find((d) => d.mode !== 'locked-down' && before.some((o) => !below(d.divisionId).includes(o.divisionId)))!.divisionId;
    expect((await s.call('POST', CURRENT, { token: admin, body: { levelId: level.body.id, divisionId: site } })).status).toBe(200);
    const hold = { kind: 'threat', levelId: level.body.id, rank, name: 'NC1 Red' };
    const held = await list();
    for (const d of held) expect([d.id, d.heldBy]).toEqual([d.id, below(site).includes(d.divisionId) && d.mode !== 'locked-down' ? hold : null]);
    // an auditor (door view only) reads the same hold
    expect((await list(auditor)).map((d) => d.heldBy)).toEqual(held.map((d) => d.heldBy));

    // held: Unlock and Open briefly refused, forced or not, with the level's name, changing nothing; Lock goes
    const door = held.find((d) => d.heldBy !== null)!;
    const free = held.find((d) => d.heldBy === null && d.mode !== 'locked-down')!;
    const was = await footprint(door.id);
    for (const body of [{ command: 'unlock' }, { command: 'momentary-unlock' }, { command: 'unlock', force: true }]) {
      const r = await command(operator, door.id, body);
      expect([r.status, r.body.message, r.body.code, r.body.values]).toEqual([
        409,
        'This door is held locked by threat level NC1 Red: lower it first',
        'door.heldByThreatLevel',
        { level: 'NC1 Red' },
      ]);
    }
    expect(await footprint(door.id)).toEqual(was);
    expect((await command(operator, door.id, { command: 'lock', force: true })).status).toBe(200);
    // a door outside the site is not held
    expect((await command(operator, free.id, { command: 'unlock', force: true })).status).toBe(200);
    expect((await command(operator, free.id, { command: 'lock' })).status).toBe(200);

    // lowered: nothing holds them, and the door takes commands again
    expect((await s.call('POST', CURRENT, { token: admin, body: { levelId: null } })).status).toBe(200);
    expect((await list()).every((d) => d.heldBy === null)).toBe(true);
    expect((await command(operator, door.id, { command: 'unlock', force: true })).status).toBe(200);
    expect((await command(operator, door.id, { command: 'lock' })).status).toBe(200);
  });
});
