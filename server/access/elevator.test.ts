// Elevator masking (issue 12): the floor list, the pure "is this floor free now" over schedules and special days, and
// the simulator's floor requests against the real server: free floors while the schedule is open, a card otherwise
// (decided at the reader's door); a list that runs backwards or names another client's reader is refused on its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, EVENT_CODES, elevatorMasksResource, parseFloors } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { localTime } from '../../access/clock';
import { freeingMask } from './elevator';
import { SpecialCalendar, type Schedule } from '../../access/schedule';

describe('floor lists', () => {
  it('reads numbers and ranges, and names what is wrong', () => {
    expect(parseFloors('1-3, 5')).toEqual({ floors: new Set([1, 2, 3, 5]) });
    expect(parseFloors(' 0 ,7 - 8')).toEqual({ floors: new Set([0, 7, 8]) });
    expect(parseFloors('5-3')).toEqual({
      problem: { message: 'has a range that runs backwards (5-3)', code: 'floors.rangeBackwards', values: { range: '5-3' } },
    });
    expect(parseFloors('1, 250')).toEqual({ problem: { message: 'must name floors up to 199', code: 'floors.aboveHighest', values: { max: 199 } } });
    expect(parseFloors('lobby')).toEqual({ problem: { message: 'must be floor numbers and ranges, e.g. 1-3, 5', code: 'floors.notList', values: {} } });
    expect(parseFloors('')).toMatchObject({ problem: { code: 'floors.notList' } });
  });
});

describe('free floors', () => {
  const office: Schedule = { id: 1, name: 'Office', windows: [1, 2, 3, 4, 5].map((day) => ({ day, start: '08:00', end: '18:00' })), special: {} };
  const schedules = new Map([[1, office]]);
  const masks = [{ id: 9, name: 'Lobby', floors: '0-1', scheduleId: 1 }];
  const at = (iso: string) => localTime(Date.parse(iso), 'Asia/Kuala_Lumpur');
  it('frees the listed floors while the schedule is open, and only those', () => {
    const cal = new SpecialCalendar([]);
    expect(freeingMask(masks, 1, at('2026-11-24T02:00:00Z'), schedules, cal)?.name).toBe('Lobby'); // Tue 10:00 local
    expect(freeingMask(masks, 2, at('2026-11-24T02:00:00Z'), schedules, cal)).toBeNull();
    expect(freeingMask(masks, 1, at('2026-11-24T11:00:00Z'), schedules, cal)).toBeNull(); // 19:00 local
    expect(freeingMask(masks, 1, at('2026-11-22T02:00:00Z'), schedules, cal)).toBeNull(); // Sunday
  });
  it('a holiday the schedule does not name closes it', () => {
    const cal = new SpecialCalendar([{ date: '2026-11-24', yearly: false, kind: 'holiday', name: 'Holiday' }]);
    expect(freeingMask(masks, 1, at('2026-11-24T02:00:00Z'), schedules, cal)).toBeNull();
  });
});

describe('elevator floor requests', () => {
  let s: TestServer;
  let admin: string;
  let northwind: number;
  beforeAll(async () => {
    s = await startTestServer({ testHooks: true });
    admin = await s.login('admin');
    northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
    admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('a masked floor is free while its schedule is open; another floor needs a card, which the door decides', async () => {
    const reader = (
      await s.db.query<{ id: number; name: string }>(`select id, name from card_readers where client_id = $1 and name = 'Lobby Turnstile 1 reader'`, [
        northwind,
      ])
    ).rows[0];
    const always = Number((await s.db.query<{ id: number }>(`select id from schedules where client_id = $1 and name = 'Always'`, [northwind])).rows[0].id);
    const backwards = await s.call('POST', elevatorMasksResource.api, {
      token: admin,
      body: { name: 'Lift', readerId: reader.id, floors: '3-1', scheduleId: always },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.violations).toEqual([
      { field: 'floors', message: 'has a range that runs backwards (3-1)', code: 'floors.rangeBackwards', values: { range: '3-1' } },
    ]);
    const theirs = Number((await s.db.query<{ id: number }>('select id from card_readers where client_id <> $1 order by id limit 1', [northwind])).rows[0].id);
    const foreign = await s.call('POST', elevatorMasksResource.api, {
      token: admin,
      body: { name: 'Lift', readerId: theirs, floors: '1', scheduleId: always },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.violations.map((v: { field: string }) => v.field)).toEqual(['readerId']);
    const made = await s.call('POST', elevatorMasksResource.api, {
      token: admin,
      body: { name: 'Lift', readerId: reader.id, floors: '0-2', scheduleId: always },
    });
    expect(made.status).toBe(201);
    expect(made.body.readerName).toBe(reader.name);

    const press = (floor: number, card?: string) =>
      s.call('POST', API.testSimulate, { token: admin, body: { kind: 'elevator.floor', readerId: reader.id, floor, card } });
    const free = await press(2);
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({ eventCode: EVENT_CODES.floorFree, message: `Floor 2 free: Lift (${reader.name})` });
    const needs = await press(5);
    expect(needs.body).toMatchObject({ eventCode: EVENT_CODES.floorNeedsCard, message: `Floor 5 needs a card (${reader.name})` });
    const card = (
      await s.db.query<{ number: string }>(
        `select c.number from credentials c join identities i on i.id = c.identity_id
      where c.client_id = $1 and c.type = 'card' and c.status = 'active' and i.status = 'active' order by c.id limit 1`,
        [northwind],
      )
    ).rows[0].number;
    const swiped = await press(5, card);
    expect(swiped.body.eventCode).toBe(EVENT_CODES.accessGranted);
    expect((await press(5, '999999999')).body.eventCode).toBe(EVENT_CODES.deniedUnknownCredential);
    expect((await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'elevator.floor', readerId: reader.id } })).status).toBe(400);
  });
});
