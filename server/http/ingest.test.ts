// The device interface: batches of controller events with a service account's API key (issue 11: per tenant). Bad messages are refused one by one with
// a reason and the good ones of the same batch are kept, persisted in the order sent and only then published to their
// tenant; alarms raised and returned to normal inside one batch end as they would one event at a time (§4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IMessage } from '@stomp/stompjs';
import { API, DESTINATIONS, EVENT_CODES, SOCKJS_PREFIX, TENANT_HEADER, serviceAccountsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { stompClient, waitFor, type TestClient } from '../realtime/testkit';
import { runDeviceSimulator } from '../../scripts/deviceSimulator';
import { EVENT_COLS, eventOfRow } from '../monitor/events';

let s: TestServer;
let TOKEN: string, harbourKey: string, readOnlyKey: string;
let operator: string, harbourToken: string;
let nwController: number, hbController: number, northwind: number;
const clients: TestClient[] = [];

beforeAll(async () => {
  s = await startTestServer();
  [operator, harbourToken] = await Promise.all([s.login('operator'), s.login('harbour')]);
  const admin = await s.login('admin');
  const key = async (code: string, role: string) => {
    const client = (await s.db.query<{ id: number }>('select id from clients where code = $1', [code])).rows[0].id;
    const r = await s.call('POST', serviceAccountsResource.api, {
      token: admin,
      headers: { [TENANT_HEADER]: String(client) },
      body: { name: `Devices ${role}`, role, active: true },
    });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    return r.body.apiKey as string;
  };
  TOKEN = await key('NORTHWIND', 'device-ingest');
  harbourKey = await key('HARBOUR', 'device-ingest');
  readOnlyKey = await key('NORTHWIND', 'integration');
  const c = async (code: string) =>
    (
      await s.db.query<{ id: number; client_id: number }>(
        `select c.id, c.client_id from controllers c join clients t on t.id = c.client_id where t.code = $1 order by c.id limit 1`,
        [code],
      )
    ).rows[0];
  const nw = await c('NORTHWIND');
  nwController = Number(nw.id);
  northwind = Number(nw.client_id);
  hbController = Number((await c('HARBOUR')).id);
});
afterAll(async () => {
  for (const c of clients) await c.client.deactivate({ force: true });
  await s?.close();
});

const send = (events: unknown, token: string | null = TOKEN) => s.call('POST', API.deviceEvents, { body: { events }, token });
const eventCount = () => s.count('select 1 from events');

async function watch(token: string): Promise<TestClient & { on(d: string): IMessage[] }> {
  const c = stompClient(`${s.base}${SOCKJS_PREFIX.event}`, { Authorization: `Bearer ${token}` });
  clients.push(c);
  await waitFor(() => c.connected || c.errors[0], 'CONNECTED');
  for (const d of [DESTINATIONS.events, DESTINATIONS.alarmCount]) {
    let done = false;
    c.client.watchForReceipt(`r-${d}`, () => {
      done = true;
    });
    c.subscribe(d, { receipt: `r-${d}` });
    await waitFor(() => done, `receipt ${d}`);
  }
  return Object.assign(c, { on: (d: string) => c.messages.filter((m) => m.headers.destination === d) });
}

describe('the device interface', () => {
  it('refuses a batch without a valid key, or from a key without the device privilege, and stores nothing', async () => {
    const before = await eventCount();
    const ev = [{ controllerId: nwController, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-1' }];
    expect((await send(ev, null)).status).toBe(401);
    expect((await send(ev, 'wrong-token')).status).toBe(401);
    expect((await send(ev, `${TOKEN.slice(0, -1)}${TOKEN.endsWith('A') ? 'B' : 'A'}`)).status).toBe(401);
    expect((await send(ev, readOnlyKey)).status).toBe(403);
    // the key in the X-API-Key header works as well as a bearer token
    const viaHeader = await s.call('POST', API.deviceEvents, { body: { events: ev }, headers: { 'x-api-key': TOKEN } });
    expect(viaHeader.status).toBe(200);
    expect(await eventCount()).toBe(before + 1);
  });

  it("refuses another tenant's controllers with a violation, never storing them", async () => {
    const before = await eventCount();
    const r = await send(
      [
        { controllerId: hbController, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-1' },
        { controllerId: nwController, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-1' },
      ],
      harbourKey,
    );
    expect(r.status).toBe(200);
    expect(r.body.accepted).toBe(1);
    expect(r.body.rejected).toEqual([
      { index: 1, violations: [{ field: 'controllerId', message: 'is not a known controller of this client', code: 'ingest.notKnownController', values: {} }] },
    ]);
    const { rows } = await s.db.query<{ client_id: number }>('select client_id from events where id > (select max(id) - 1 from events)');
    expect(Number(rows[0].client_id)).not.toBe(northwind);
    expect(await eventCount()).toBe(before + 1);
  });

  it("refuses an edge's live events naming another client's controller, no number noted; its people and doors are as ones that exist nowhere", async () => {
    const nw = await watch(operator);
    const before = await eventCount();
    const northwindRows = async () =>
      JSON.stringify(
        await Promise.all([
          s.db.query('select to_jsonb(p)::text r from zone_presence p where client_id = $1 order by identity_id', [northwind]),
          s.db.query('select to_jsonb(d)::text r from doors d where client_id = $1 order by id', [northwind]),
          s.db.query('select count(*)::text n, max(id)::text m from events where client_id = $1', [northwind]),
        ]).then((rs) => rs.map((x) => x.rows)),
      );
    const northwindBefore = await northwindRows();
    const seqRows = async (controller: number) =>
      (
        await s.db.query('select 1 from edge_controllers where controller_id = $1 union all select 1 from edge_seq_ahead where controller_id = $1', [
          controller,
        ])
      ).rows.length;
    const nwNumbers = await seqRows(nwController);
    const part = (seq: number, decided?: object) => ({
      seq,
      occurredAt: Date.now(),
      offline: false,
      snapshotVersion: 1,
      live: true,
      ...(decided ? { decided } : {}),
    });
    const nwDoor = Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
    const nwPerson = Number((await s.db.query<{ id: number }>('select id from identities where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
    // Harbour's key: a live event far ahead of Northwind's controller's journal, and one of Harbour's own controller
    // whose decided swipe names Northwind's door and person (the live lane stores ahead without waiting for the backlog),
    // then the same naming a door and person that exist nowhere
    const hbSwipe = (seq: number, identityId: number, doorId: number) => ({
      controllerId: hbController,
      eventCode: EVENT_CODES.accessGranted,
      sourceId: 'reader-1',
      edge: part(seq, { identityId, decision: 'granted', reason: 'granted', card: 'NW-CARD', doorId, side: 'entry' }),
    });
    const r = await send(
      [
        { controllerId: nwController, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-1', edge: part(1_000) },
        { controllerId: nwController, eventCode: EVENT_CODES.doorForcedOpen, sourceId: 'door-1', edge: part(1_001) },
        hbSwipe(5_000, nwPerson, nwDoor),
      ],
      harbourKey,
    );
    const nowhere = await send([hbSwipe(5_001, 900_000_001, 900_000_002)], harbourKey);
    expect(r.status).toBe(200);
    expect(r.body.accepted).toBe(1);
    expect(r.body.rejected.map((x: any) => [x.index, x.violations[0].field, x.violations[0].code])).toEqual([
      [0, 'controllerId', 'ingest.notKnownController'],
      [1, 'controllerId', 'ingest.notKnownController'],
    ]);
    // Northwind's person and door answered as ones that exist nowhere: stored, Harbour's, attributed to no one
    expect(nowhere.status).toBe(200);
    expect({ ...r.body, rejected: [], firstId: 0, lastId: 0 }).toEqual({ ...nowhere.body, firstId: 0, lastId: 0 });
    const { rows } = await s.db.query<{ client_id: number; identity_id: number | null }>(
      'select client_id, identity_id from events where id = any($1::bigint[]) order by id',
      [[r.body.firstId, nowhere.body.firstId]],
    );
    expect(rows.map((x) => [Number(x.client_id), x.identity_id])).toEqual([
      [Number(rows[0].client_id), null],
      [Number(rows[0].client_id), null],
    ]);
    expect(Number(rows[0].client_id)).not.toBe(northwind);
    expect(await eventCount()).toBe(before + 2);
    expect(await seqRows(nwController)).toBe(nwNumbers); // no number of Northwind's controller noted by Harbour's batch
    expect(await s.count('select 1 from edge_seq_ahead where controller_id = $1 and seq = any($2::bigint[])', [hbController, [5_000, 5_001]])).toBe(2);
    // nothing of Northwind's moved, written or said
    expect(await northwindRows()).toBe(northwindBefore);
    await new Promise((res) => setTimeout(res, 300));
    expect(nw.on(DESTINATIONS.events)).toEqual([]);
  });

  it('answers 400 naming the field for an envelope that is not a batch', async () => {
    const before = await eventCount();
    for (const events of ['nope', [], { 0: 1 }]) {
      const r = await send(events);
      expect(r.status).toBe(400);
      expect(r.body.violations[0].field).toBe('events');
    }
    expect(await eventCount()).toBe(before);
  });

  it('keeps the good messages of a batch in the order sent, refuses each bad one with its reason, and publishes to the tenant only', async () => {
    const nw = await watch(operator);
    const hb = await watch(harbourToken);
    const before = await eventCount();
    const good = (n: number) => ({ controllerId: nwController, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-9', message: `swipe ${n}` });
    const batch = [
      good(1),
      { controllerId: nwController, eventCode: 99999, sourceId: 'reader-9' }, // unknown event code
      good(2),
      { controllerId: nwController, eventCode: EVENT_CODES.accessGranted, sourceId: 'a\u0000b' }, // NUL
      { controllerId: 2147483648, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-9' }, // beyond int
      { controllerId: 999999, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-9' }, // no such controller
      { eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-9' }, // missing controller
      good(3),
    ];
    const r = await send(batch);
    expect(r.status).toBe(200);
    expect(r.body.accepted).toBe(3);
    expect(r.body.rejected.map((x: any) => [x.index, x.violations[0].field])).toEqual([
      [1, 'eventCode'],
      [3, 'sourceId'],
      [4, 'controllerId'],
      [5, 'controllerId'],
      [6, 'controllerId'],
    ]);
    const { rows } = await s.db.query<{ id: string; message: string; client_id: number }>(
      'select id, message, client_id from events where id between $1 and $2 order by id',
      [r.body.firstId, r.body.lastId],
    );
    expect(rows.map((x) => x.message)).toEqual(['swipe 1', 'swipe 2', 'swipe 3']);
    expect(rows.every((x) => Number(x.client_id) === northwind)).toBe(true);
    expect(await eventCount()).toBe(before + 3);
    await waitFor(() => nw.on(DESTINATIONS.events).length >= 3, 'three events on the tenant console');
    expect(nw.on(DESTINATIONS.events).map((m) => JSON.parse(m.body).message)).toEqual(['swipe 1', 'swipe 2', 'swipe 3']);
    expect(hb.on(DESTINATIONS.events)).toHaveLength(0);
    // what the consoles heard is the event as stored, read back as every other reader reads it
    expect(nw.on(DESTINATIONS.events).map((m) => JSON.parse(m.body))).toEqual(await stored(r.body.firstId, r.body.lastId));
  });

  /** The events with these ids as the database answers them (the history's and the alarms' reading). */
  const stored = async (from: number, to: number) =>
    (
      await s.db.query(`select ${EVENT_COLS} from events e left join alarms a on a.event_id = e.id where e.id between $1 and $2 order by e.id`, [from, to])
    ).rows.map(eventOfRow);

  it('raises and returns alarms to normal inside one batch as one event at a time would (§4)', async () => {
    const nw = await watch(operator);
    const door = (p: string, code: number) => ({ controllerId: nwController, eventCode: code, sourceId: `door-${p}`, pointId: `door-${p}` });
    // an alarm stored before the batch, on point P0
    const first = await send([door('p0', EVENT_CODES.doorForcedOpen)]);
    expect(first.body.accepted).toBe(1);
    const r = await send([
      door('p1', EVENT_CODES.doorForcedOpen), // raised, then back to normal in the same batch
      door('p1', EVENT_CODES.doorClosed),
      door('p1', EVENT_CODES.doorForcedOpen), // raised again after that: stays open
      door('p2', EVENT_CODES.doorHeldOpen), // stays open
      door('p0', EVENT_CODES.doorClosed), // the stored alarm of P0 returns to normal
    ]);
    // another tenant's point of the same name, through its own key
    expect(
      (await send([{ controllerId: hbController, eventCode: EVENT_CODES.doorClosed, sourceId: 'door-p2', pointId: 'door-p2' }], harbourKey)).body.accepted,
    ).toBe(1);
    expect(r.body.accepted).toBe(5);
    const ids = Array.from({ length: 5 }, (_, i) => r.body.firstId + i);
    const state = async (eventId: number) =>
      (await s.db.query<{ state: string; note: string | null }>('select state, note from alarms where event_id = $1', [eventId])).rows[0];
    expect(await state(ids[0])).toEqual({ state: 'processed', note: `Returned to normal: event ${ids[1]}` });
    expect((await state(ids[2])).state).toBe('raised');
    expect((await state(ids[3])).state).toBe('raised');
    expect(await state(first.body.firstId)).toEqual({ state: 'processed', note: `Returned to normal: event ${ids[4]}` });
    const history = async (eventId: number) =>
      (await s.db.query<{ action: string }>('select action from alarm_history where alarm_id = $1 order by id', [eventId])).rows.map((h) => h.action);
    expect(await history(ids[0])).toEqual(['raised', 'processed']);
    expect(await history(first.body.firstId)).toEqual(['raised', 'processed']);
    expect(await history(ids[2])).toEqual(['raised']);
    const open = await s.call('GET', API.alarms, { token: operator });
    const openIds = open.body.map((a: any) => a.id);
    expect(openIds).toEqual(expect.arrayContaining([ids[2], ids[3]]));
    expect(openIds).not.toContain(ids[0]);
    expect(openIds).not.toContain(first.body.firstId);
    // each was published as stored when it was committed: the alarms still open read back the same (raised, not
    // acknowledged, their priority and instructions), the ones returned to normal as raised then
    await waitFor(() => nw.on(DESTINATIONS.events).length >= 6, 'the events on the console');
    const heard = new Map(nw.on(DESTINATIONS.events).map((m) => [JSON.parse(m.body).id, JSON.parse(m.body)]));
    const [, , third, fourth, fifth] = await stored(ids[0], ids[4]);
    expect([heard.get(ids[2]), heard.get(ids[3]), heard.get(ids[4])]).toEqual([third, fourth, fifth]);
    expect(third).toMatchObject({ alert: true, acknowledge: false, process: false, instructions: expect.any(String) });
    expect(heard.get(ids[0])).toMatchObject({ alert: true, acknowledge: false, process: false });
  });

  it('an input of an armed alarm group reported active by a device is an intrusion; disarmed, or another client’s, it is not (issue 12)', async () => {
    const input = async (client: number | string) =>
      (
        await s.db.query<{ id: number; name: string }>(
          typeof client === 'number'
            ? 'select id, name from inputs where client_id = $1 order by id limit 1'
            : `select i.id, i.name from inputs i join clients c on c.id = i.client_id where c.code = $1 order by i.id limit 1`,
          [client],
        )
      ).rows[0];
    const own = await input(northwind);
    const theirs = await input('HARBOUR');
    const group = Number(
      (await s.db.query<{ id: number }>(`insert into alarm_groups (client_id, name, state) values ($1, 'Ingest zone', 'armed') returning id`, [northwind]))
        .rows[0].id,
    );
    await s.db.query('insert into alarm_group_inputs (alarm_group_id, input_id) values ($1, $2), ($1, $3)', [group, own.id, theirs.id]);
    const active = (sourceId: string) => ({ controllerId: nwController, eventCode: EVENT_CODES.inputActive, sourceId });
    const r = await send([active(`in-${own.id}`), active(`in-${theirs.id}`), active('input-1')]);
    expect(r.body.accepted).toBe(3);
    const stored = (
      await s.db.query<{ event_code: number; message: string; message_code: string | null; message_values: unknown }>(
        'select event_code, message, message_code, message_values from events where id between $1 and $2 order by id',
        [r.body.firstId, r.body.lastId],
      )
    ).rows;
    // issue 48: said with its key and values too, for the console to say it in the operator's language
    expect(stored[0]).toEqual({
      event_code: EVENT_CODES.intrusion,
      message: `Intrusion: input active in an armed alarm zone: ${own.name} (alarm zone Ingest zone)`,
      message_code: 'event.intrusion',
      message_values: { event: 'Intrusion: input active in an armed alarm zone', input: own.name, zone: 'Ingest zone' },
    });
    expect(stored.slice(1).map((e) => e.event_code)).toEqual([EVENT_CODES.inputActive, EVENT_CODES.inputActive]);
    // sent without a message: the event's label, with its key too
    expect(stored[1]).toMatchObject({ message: 'Input active', message_code: 'event.label', message_values: { event: 'Input active' } });
    expect((await s.db.query<{ priority: number }>('select priority from alarms where event_id = $1', [r.body.firstId])).rows[0].priority).toBe(1);
    await s.db.query(`update alarm_groups set state = 'disarmed' where id = $1`, [group]);
    const after = await send([active(`in-${own.id}`)]);
    expect((await s.db.query<{ event_code: number }>('select event_code from events where id = $1', [after.body.firstId])).rows[0].event_code).toBe(
      EVENT_CODES.inputActive,
    );
  });

  it("takes a controller made since its tenant's controllers were read (e.g. through another server), once it exists", async () => {
    expect((await send([{ controllerId: nwController, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-1' }])).status).toBe(200); // read now
    const next = Number((await s.db.query<{ id: number }>('select coalesce(max(id), 0) + 1000 as id from controllers')).rows[0].id);
    const ev = [{ controllerId: next, eventCode: EVENT_CODES.accessGranted, sourceId: 'reader-new' }];
    const before = await send(ev);
    expect(before.body.rejected).toEqual([
      { index: 0, violations: [{ field: 'controllerId', message: 'is not a known controller of this client', code: 'ingest.notKnownController', values: {} }] },
    ]);
    // made behind this server's back: no change notice reaches the cache
    await s.db.query(`insert into controllers (id, client_id, name, ip_address) values ($1, $2, 'Made elsewhere', '10.9.9.9')`, [next, northwind]);
    const after = await send(ev);
    expect([after.status, after.body.accepted, after.body.rejected]).toEqual([200, 1, []]);
    // another tenant's key still cannot name it
    const other = await send(ev, harbourKey);
    expect(other.body.accepted).toBe(0);
  });

  it('persists a burst sent concurrently with every event in order of arrival, none lost', async () => {
    const before = await eventCount();
    const bursts = await Promise.all(
      Array.from({ length: 20 }, (_, b) =>
        send(
          Array.from({ length: 100 }, (_, i) => ({
            controllerId: nwController,
            eventCode: EVENT_CODES.accessGranted,
            sourceId: `reader-b${b}`,
            message: `${b}:${i}`,
          })),
        ),
      ),
    );
    expect(bursts.every((b) => b.status === 200 && b.body.accepted === 100)).toBe(true);
    expect(await eventCount()).toBe(before + 2000);
    // one request's messages are queued together, so they hold consecutive ids in the order sent
    for (const [b, r] of bursts.entries()) {
      const { rows } = await s.db.query<{ message: string }>('select message from events where id between $1 and $2 order by id', [
        r.body.firstId,
        r.body.lastId,
      ]);
      expect(rows.map((x) => x.message)).toEqual(Array.from({ length: 100 }, (_, i) => `${b}:${i}`));
    }
  });

  it('takes the events of the device simulator run as its own client (npm run simulator), every one stored', async () => {
    const before = await eventCount();
    const r = await runDeviceSimulator({ url: s.base, keys: [TOKEN, harbourKey], controllers: 20, rate: 400, durationS: 1 });
    expect(r.failedRequests).toBe(0);
    expect(r.sent).toBeGreaterThan(0);
    expect(r.accepted).toBe(r.sent);
    expect(await eventCount()).toBe(before + r.sent);
    const wrong = runDeviceSimulator({ url: s.base, keys: ['nope'], controllers: 1, rate: 10, durationS: 1 });
    await expect(wrong).rejects.toThrow(/401/);
  });
});
