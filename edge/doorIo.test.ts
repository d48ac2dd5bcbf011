// Gatehouse Edge's door side against the real server and database (issue 47): a granted swipe releases the door's
// strike for its unlock time (its strike output's pulse); the door's contact and exit button are watched at the edge:
// a request to exit releases the door and is recorded, the contact opening with the strike locked is Door forced open,
// left open past the door's held-open time Door held open, each journaled and raising its alarm on the server, and
// closing returns it to normal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, centralPropertiesResource, doorsResource, inputsResource, outputsResource, threatLevelsResource } from '../contract';
import { EMPTY_STATE, decide } from '../access/engine';
import { startTestServer, type TestServer } from '../server/testkit';
import { edgeOfFirstController, proxyTo, until, type EdgeFixture } from './testPeers';

let s: TestServer;
let f: EdgeFixture;
let admin: string;
let northwind: number;
let controller: number;
let key: string;
let door: number;
let contact: number;
let exitButton: number;
const edgeWith = (k: string, server = s.base, journalLimit?: number) => f.edge({ server, key: k, journalLimit, dataDir: f.dataDir('gatehouse-edge-io-') });

/** A catalogue row changed through its PUT (every field it has, `change` over them). */
async function put(resource: { api: string; fields: Record<string, unknown> }, id: number, change: Record<string, unknown>) {
  const row = (await s.call('GET', `${resource.api}/${id}`, { token: admin })).body;
  const body = Object.fromEntries(
    Object.keys(resource.fields)
      .filter((f) => !(resource.fields[f] as { virtual?: boolean }).virtual)
      .map((f) => [f, row[f] ?? null]),
  );
  const r = await s.call('PUT', `${resource.api}/${id}`, {
    token: admin,
    body: { ...body, ...(row.updatedAt ? { updatedAt: row.updatedAt } : {}), ...change },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** The server's event of the door with this code after event `after`, once stored. */
const serverEvent = (code: number, pointId: string, after = 0) =>
  until(`event ${code} at ${pointId} on the server`, async () => {
    const { rows } = await s.db.query<{ id: number; message: string; alert: boolean }>(
      `select id, message, alert from events where client_id = $1 and event_code = $2 and event_point_id = $3 and id > $4 order by id limit 1`,
      [northwind, code, pointId, after],
    );
    return rows[0];
  });

beforeAll(async () => {
  s = await startTestServer();
  // a door whose reader, contact and strike are all on one controller (the seed wires each door so)
  f = await edgeOfFirstController(s, async (client, token) => {
    [northwind, admin] = [client, token];
    const { rows } = await s.db.query<{ controller_id: number; door_id: number; contact: number; strike: number }>(
      `select r.controller_id, r.door_id, i.id as contact, o.id as strike from card_readers r
       join inputs i on i.door_id = r.door_id and i.controller_id = r.controller_id and i.kind = 'door-contact'
       join outputs o on o.door_id = r.door_id and o.controller_id = r.controller_id and o.kind = 'strike'
      where r.client_id = $1 order by r.controller_id, r.door_id limit 1`,
      [northwind],
    );
    controller = Number(rows[0].controller_id);
    door = Number(rows[0].door_id);
    contact = Number(rows[0].contact);
    // the strike unlocks for 1 s, the door may stand open 1 s, and it has an exit button
    await put(outputsResource, Number(rows[0].strike), { pulseSeconds: 1 });
    await put(doorsResource, door, { heldOpenSeconds: 1 });
    const made = await s.call('POST', inputsResource.api, {
      token: admin,
      body: { name: 'Edge I/O test exit button', kind: 'exit-button', controllerId: controller, doorId: door, normallyClosed: false, supervised: false },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    exitButton = Number(made.body.id);
    return { controller, door };
  });
  key = f.key;
}, 60_000);

afterAll(async () => {
  await (f ? f.close() : s?.close());
});

describe('Gatehouse Edge door I/O', () => {
  it('a granted swipe releases the door’s strike for its unlock time; a denied one leaves it locked', async () => {
    const edge = edgeWith(key);
    await until('the door’s strike and inputs in the snapshot', () => {
      const d = edge.link.online && edge.store.held?.snapshot.doors.find((x) => x.id === door);
      return d && d.strike?.unlockMs === 1000 && d.heldOpenMs === 1000 && d.inputs.some((i) => i.id === exitButton && i.kind === 'exit-button');
    });
    expect(edge.io.state(door)).toBe('locked');
    const index = await s.app.simulator.access.get(northwind);
    const at = Date.now();
    const card = [...index.credentials.values()].find(
      (c) => decide(index, EMPTY_STATE, { doorId: door, at, side: 'entry', presented: { kind: 'card', number: c.number } }).granted,
    )!;
    expect(edge.swipe({ doorId: door, card: '999999999', side: 'entry' }).decision.granted).toBe(false);
    expect(edge.io.state(door)).toBe('locked');
    expect(edge.swipe({ doorId: door, card: card.number, side: 'entry' }).decision.granted).toBe(true);
    expect(edge.io.state(door)).toBe('unlocked-briefly');
    await until('relocked after the strike’s 1 s', () => edge.io.state(door) === 'locked');
    edge.stop();
  });

  it('a door command by what acted, not a person (a threat level), carries it as a keyed value at the edge’s door event, as the server’s own door events do', async () => {
    const edge = edgeWith(key);
    await until('online with its snapshot', () => edge.link.online && !!edge.store.held?.snapshot.doors.some((d) => d.id === door));
    const since = Number((await s.db.query<{ n: string }>('select coalesce(max(id), 0)::text as n from events')).rows[0].n);
    const critical = (await s.db.query<{ id: number }>(`select id from threat_levels where client_id = $1 and name = 'Critical'`, [northwind])).rows[0];
    try {
      const threat = await s.call('POST', `${threatLevelsResource.api}/current`, { token: admin, body: { levelId: Number(critical.id) } });
      expect(threat.status, JSON.stringify(threat.body)).toBe(200);
      expect(threat.body.unreached ?? []).toEqual([]);
      const stored = await until('the edge’s Door locked by the threat level on the server', async () => {
        const { rows } = await s.db.query<{ message: string; message_code: string; message_values: Record<string, unknown> }>(
          `select message, message_code, message_values from events where client_id = $1 and event_code = $2 and event_source_id = $3 and id > $4
            and message_code like 'event.atDoorBy%' order by id limit 1`,
          [northwind, EVENT_CODES.doorLocked, `door-${door}`, since],
        );
        return rows[0];
      });
      expect(stored.message).toMatch(/ by threat level Critical/);
      expect(stored.message_values).toMatchObject({ actor: 'threat level Critical', 'actor:code': 'actor.threatLevel', 'actor.name': 'Critical' });
    } finally {
      expect((await s.call('POST', `${threatLevelsResource.api}/current`, { token: admin, body: { levelId: null } })).status).toBe(200);
      edge.stop();
    }
  });

  it('the demo’s simulated readers: a door granted opens and closes again as a person walks through, and no alarm comes of it', async () => {
    const edge = f.edge({ dataDir: f.dataDir('gatehouse-edge-walk-'), readers: { everyMs: 150 } });
    await until('online with its snapshot', () => edge.link.online && !!edge.store.held);
    const withContact = edge.store.held!.snapshot.doors.filter((d) => d.inputs.some((i) => i.kind === 'door-contact' && !i.at)).map((d) => d.id);
    expect(withContact).toContain(door);
    try {
      // three walks: a door's contact seen open after a grant, then closed again
      for (let walked = 0; walked < 3; walked++) {
        const opened = await until('a granted door’s contact open', () => withContact.find((d) => edge.io.isOpen(d)), 20_000);
        await until('closed again', () => !edge.io.isOpen(opened));
      }
    } finally {
      edge.stop();
    }
    const grants = edge.journal.all().filter((e) => e.decided?.decision === 'granted');
    expect(grants.length).toBeGreaterThanOrEqual(3);
    // opened while its strike was released and closed within its held-open time: neither forced nor held open
    expect(edge.journal.all().filter((e) => e.eventCode === EVENT_CODES.doorForcedOpen || e.eventCode === EVENT_CODES.doorHeldOpen)).toEqual([]);
  });

  it('contact and exit button: forced open and held open are journaled and raise their alarms on the server; closing returns them to normal', async () => {
    const edge = edgeWith(key);
    await until('online with the door’s inputs', () => edge.link.online && edge.store.held?.snapshot.doors.find((x) => x.id === door)?.inputs.length);
    const alarmOf = async (eventId: number) =>
      (await s.db.query<{ state: string }>('select state from alarms where event_id = $1', [eventId])).rows[0]?.state ?? null;
    const status = async () => (await s.db.query<{ status: string }>('select status from doors where id = $1', [door])).rows[0].status;

    // the contact opens with the strike locked: forced open, an alarm on the server
    const forced = edge.io.input(contact, true);
    expect(forced.entries.map((e) => e.eventCode)).toEqual([EVENT_CODES.doorForcedOpen]);
    const forcedEvent = await serverEvent(EVENT_CODES.doorForcedOpen, `door-${door}`);
    expect(forcedEvent.alert).toBe(true);
    expect(await alarmOf(forcedEvent.id)).toBe('raised');
    await until('the door forced open on the server', async () => (await status()) === 'forced-open');
    // closed: Door closed returns it to normal
    expect(edge.io.input(contact, false).entries.map((e) => e.eventCode)).toEqual([EVENT_CODES.doorClosed]);
    await serverEvent(EVENT_CODES.doorClosed, `door-${door}`, forcedEvent.id);
    await until('the door closed on the server', async () => (await status()) === 'closed');

    // the exit button: a request to exit, recorded on its own point, releases the strike; opening then is no alarm
    const rex = edge.io.input(exitButton, true);
    expect(rex).toMatchObject({ ok: true, entries: [{ eventCode: EVENT_CODES.inputActive, pointId: `input-${exitButton}` }] });
    expect(rex.message).toContain('request to exit');
    expect(edge.io.state(door)).toBe('unlocked-briefly');
    edge.io.input(exitButton, false);
    expect(edge.io.input(contact, true).entries).toEqual([]);
    await serverEvent(EVENT_CODES.inputActive, `input-${exitButton}`);
    // left open past its 1 s: held open, an alarm on the server
    const heldEvent = await serverEvent(EVENT_CODES.doorHeldOpen, `door-${door}`, forcedEvent.id);
    expect(heldEvent.alert).toBe(true);
    expect(edge.journal.all().some((e) => e.eventCode === EVENT_CODES.doorHeldOpen && e.sourceId === `door-${door}`)).toBe(true);
    await until('the door held open on the server', async () => (await status()) === 'held-open');
    expect(edge.io.input(contact, false).entries.map((e) => e.eventCode)).toEqual([EVENT_CODES.doorClosed]);
    await serverEvent(EVENT_CODES.doorClosed, `door-${door}`, heldEvent.id);

    // an opening let through and closed in time is no event at all
    const journaled = edge.journal.lastSeq;
    edge.io.pulse(door);
    edge.io.input(contact, true);
    edge.io.input(contact, false);
    expect(edge.journal.lastSeq).toBe(journaled);
    // an input that is not a contact or exit button of this controller changes nothing
    expect(edge.io.input(2_000_000_000, true)).toMatchObject({ ok: false, entries: [] });
    expect(edge.journal.lastSeq).toBe(journaled);
    edge.stop();
  });

  it('reads each input as wired: normally closed or open, and a supervised line shorted or cut is a tamper alarm on the server until it reads right again', async () => {
    await put(inputsResource, contact, { normallyClosed: true, supervised: true });
    const edge = edgeWith(key);
    const wired = (nc: boolean, sup: boolean) =>
      until(`the contact wired ${nc ? 'NC' : 'NO'}${sup ? ', supervised' : ''} in the snapshot`, () => {
        const i = edge.link.online && edge.store.held?.snapshot.doors.find((x) => x.id === door)?.inputs.find((x) => x.id === contact);
        return i && i.normallyClosed === nc && i.supervised === sup;
      });
    await wired(true, true);
    const codes = (o: { entries: { eventCode: number }[] }) => o.entries.map((e) => e.eventCode);
    // normally closed: the circuit closed is the door at rest, open is the door open (forced: the strike is locked)
    expect(codes(edge.io.circuit(contact, 'closed'))).toEqual([]);
    expect(codes(edge.io.circuit(contact, 'open'))).toEqual([EVENT_CODES.doorForcedOpen]);
    expect(codes(edge.io.circuit(contact, 'closed'))).toEqual([EVENT_CODES.doorClosed]);
    // supervised: the line cut is Input tamper on the input's point, an alarm on the server; it says nothing of the door
    const cut = edge.io.circuit(contact, 'cut');
    expect(cut.entries).toMatchObject([{ eventCode: EVENT_CODES.inputTamper, pointId: `input-${contact}` }]);
    expect(cut.message).toContain('line cut');
    expect(codes(edge.io.circuit(contact, 'short'))).toEqual([]); // still in tamper: raised once
    const tamper = await serverEvent(EVENT_CODES.inputTamper, `input-${contact}`);
    expect(tamper.alert).toBe(true);
    const alarmOf = async (eventId: number) => (await s.db.query<{ state: string }>('select state from alarms where event_id = $1', [eventId])).rows[0]?.state;
    expect(await alarmOf(tamper.id)).toBe('raised');
    // read right again: Input idle returns the tamper alarm to normal, and the door is closed (no door event)
    expect(codes(edge.io.circuit(contact, 'closed'))).toEqual([EVENT_CODES.inputIdle]);
    await serverEvent(EVENT_CODES.inputIdle, `input-${contact}`, tamper.id);
    await until('the tamper alarm returned to normal', async () => (await alarmOf(tamper.id)) === 'processed');
    // normally open and not supervised: the circuit closed is the door open, and a cut line reads as open (no tamper)
    await put(inputsResource, contact, { normallyClosed: false, supervised: false });
    await wired(false, false);
    expect(codes(edge.io.circuit(contact, 'open'))).toEqual([]);
    expect(codes(edge.io.circuit(contact, 'closed'))).toEqual([EVENT_CODES.doorForcedOpen]);
    expect(codes(edge.io.circuit(contact, 'cut'))).toEqual([EVENT_CODES.doorClosed]);
    // the exit button (normally open): its circuit closing is a request to exit
    expect(edge.io.circuit(exitButton, 'closed').entries).toMatchObject([{ eventCode: EVENT_CODES.inputActive, pointId: `input-${exitButton}` }]);
    expect(codes(edge.io.circuit(exitButton, 'open'))).toEqual([]);
    await until('relocked', () => edge.io.state(door) === 'locked');
    await put(inputsResource, contact, { normallyClosed: true, supervised: false });
    edge.stop();
  });

  it('a command to an offline edge is refused with 409 naming it; a lockdown is recorded all the same, names the door it could not reach, and locks it when the edge is back', async () => {
    const proxy = await proxyTo(Number(new URL(s.base).port));
    const edge = edgeWith(key, proxy.url());
    const cmd = (command: string) => s.call('POST', `${API.doors}/${door}/commands`, { token: admin, body: { command } });
    const controllerName = (await s.db.query<{ name: string }>('select name from controllers where id = $1', [controller])).rows[0].name;
    try {
      await until('online', () => edge.link.online && edge.store.held);
      expect((await cmd('unlock')).status).toBe(200);
      expect(edge.io.state(door)).toBe('unlocked');
      await proxy.cut();
      await until('the link gone on the server', () =>
        s.count('select 1 from edge_controllers where controller_id = $1 and disconnected_at is not null', [controller]),
      );
      const refused = await cmd('lock');
      expect(refused.status).toBe(409);
      expect(JSON.stringify(refused.body)).toContain(`its Gatehouse Edge controller ${controllerName} is offline`);
      const doorName = (await s.db.query<{ name: string }>('select name from doors where id = $1', [door])).rows[0].name;
      // a threat level that holds the doors locked: recorded, and the door it could not reach named (the console's toast)
      const critical = (await s.db.query<{ id: number }>(`select id from threat_levels where client_id = $1 and name = 'Critical'`, [northwind])).rows[0];
      const threat = await s.call('POST', `${threatLevelsResource.api}/current`, { token: admin, body: { levelId: Number(critical.id) } });
      expect(threat.status, JSON.stringify(threat.body)).toBe(200);
      expect(threat.body.level).toMatchObject({ name: 'Critical', mode: 'locked' });
      expect(threat.body.unreached).toEqual(expect.arrayContaining([{ doorId: door, doorName, message: expect.stringContaining('is offline') }]));
      expect((await s.call('POST', `${threatLevelsResource.api}/current`, { token: admin, body: { levelId: null } })).status).toBe(200);
      // the lockdown: recorded on the server, answered 200, the door it could not reach named with why
      const lockdown = await s.call('POST', `${API.doors}/lockdown`, { token: admin, body: { on: true } });
      expect(lockdown.status, JSON.stringify(lockdown.body)).toBe(200);
      expect(lockdown.body.unreached).toEqual(expect.arrayContaining([{ doorId: door, message: expect.stringContaining('is offline') }]));
      expect((await s.db.query<{ mode: string }>('select mode from doors where id = $1', [door])).rows[0].mode).toBe('locked-down');
      expect(edge.io.state(door)).toBe('unlocked'); // nothing reached the door yet
      // the link back: the snapshot brings the lockdown, the edge locks the strike and says so
      await proxy.restore();
      await until('locked at the edge with the snapshot', () => edge.io.state(door) === 'locked', 15_000);
      expect(edge.journal.all().some((e) => e.eventCode === EVENT_CODES.doorLocked && e.message.includes('locked down'))).toBe(true);
      await until('its event on the server', async () =>
        s.count(`select 1 from events where event_source_id = $1 and event_code = $2 and message like '%locked down%'`, [
          `door-${door}`,
          EVENT_CODES.doorLocked,
        ]),
      );
    } finally {
      await s.call('POST', `${API.doors}/lockdown`, { token: admin, body: { on: false } });
      edge.stop();
      proxy.close();
    }
  });

  it('the client’s own maxOfflineDays (Central properties) reaches the edge in its snapshot: past it, offline, the door follows its degraded policy', async () => {
    const edge = edgeWith(key);
    try {
      await until('online', () => edge.link.online && edge.store.held);
      expect(edge.store.held!.snapshot.maxOfflineDays).toBe(7); // the default
      await put(doorsResource, door, { degradedPolicy: 'locked' });
      const props = (await s.call('GET', centralPropertiesResource.api, { token: admin })).body;
      const changed = await s.call('PUT', centralPropertiesResource.api, {
        token: admin,
        body: { eventRetentionDays: props.eventRetentionDays, visitorRetentionDays: props.visitorRetentionDays, edgeMaxOfflineDays: 2 },
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      await until('the client’s 2 days and the door’s policy at the edge', () => {
        const held = edge.store.held?.snapshot;
        return held?.maxOfflineDays === 2 && held.doors.find((d) => d.id === door)?.degraded === 'locked';
      });
      // out of range is refused, naming the field
      const bad = await s.call('PUT', centralPropertiesResource.api, { token: admin, body: { ...props, edgeMaxOfflineDays: 366 } });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('edgeMaxOfflineDays');
      edge.link.stop(); // the link gone for good
      const card = edge.store.held!.snapshot.credentials[0]?.number ?? '1';
      // within its 2 days the door decides from the snapshot; past them (3 days, within the default 7) it is locked
      expect(edge.swipe({ doorId: door, card, at: Date.now() + 86_400_000 }).mode).toBe('offline');
      expect(edge.swipe({ doorId: door, card, at: Date.now() + 3 * 86_400_000 })).toMatchObject({
        mode: 'degraded',
        decision: { granted: false, reason: 'door-locked-down' },
      });
    } finally {
      edge.stop();
    }
  });

  it('its journal 80 % full of undelivered events raises an alarm on the server; delivered, it returns to normal', async () => {
    const proxy = await proxyTo(Number(new URL(s.base).port));
    const edge = edgeWith(key, proxy.url(), 10); // a journal bound of 10 events
    try {
      await until('online', () => edge.link.online && edge.store.held);
      await proxy.cut();
      await until('offline', () => !edge.link.online);
      const card = edge.store.held!.snapshot.credentials[0]?.number ?? '1';
      for (let i = 0; i < 7; i++) edge.swipe({ doorId: door, card });
      expect(edge.fill.raised).toBe(false); // 7 of 10
      edge.swipe({ doorId: door, card }); // 8 of 10: 80 %
      expect(edge.fill.raised).toBe(true);
      const filling = edge.journal.all().find((e) => e.eventCode === EVENT_CODES.edgeJournalFilling);
      expect(filling).toMatchObject({ pointId: `journal-${controller}`, offline: true });
      expect(filling!.message).toContain('80 %');
      await proxy.restore();
      await until('delivered', () => edge.link.online && edge.journal.pendingCount() === 0, 15_000);
      expect(edge.fill.raised).toBe(false);
      const raised = await serverEvent(EVENT_CODES.edgeJournalFilling, `journal-${controller}`);
      expect(raised.alert).toBe(true);
      await serverEvent(EVENT_CODES.edgeJournalNormal, `journal-${controller}`, raised.id);
      await until('its alarm back to normal', async () => s.count(`select 1 from alarms where event_id = $1 and state = 'processed'`, [raised.id]));
    } finally {
      edge.stop();
      proxy.close();
    }
  });
});
