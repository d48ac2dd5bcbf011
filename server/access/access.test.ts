// Access configuration deciding what doors do (issue 12), against the real server and database: schedules and
// card formats refused with the field named, references to another tenant's door refused, a schedule change
// reaching the next simulated swipe without a restart, the identity, decision and reason stored on the swipe
// event, special dates denying on their date, and the "Why?" explainer scoped to the tenant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { buildServer } from '../app';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, harbour: string, operator: string;
let northwind: number, harbourId: number;
const SCHEDULES = '/event/manage/schedules';
const GROUPS = '/event/manage/access-groups';
const SPECIAL = '/event/manage/special-dates';
const FORMATS = '/event/manage/card-formats';

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  [admin, harbour, operator] = await Promise.all(['admin', 'harbour', 'operator'].map((u) => s.login(u)));
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  harbourId = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'HARBOUR'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const firstDoor = async (clientId: number) =>
  Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id limit 1', [clientId])).rows[0].id);
const activeCard = async () =>
  (
    await s.db.query<{ number: string; identity_id: number }>(
      `select c.number, c.identity_id from credentials c join identities i on i.id = c.identity_id where c.client_id = $1 and i.status = 'active' order by c.id limit 1`,
      [northwind],
    )
  ).rows[0];
/** 2026-11-24 is a Tuesday; Northwind is in Asia/Kuala_Lumpur (UTC+8). */
const local = (hhmm: string, day = '2026-11-24') => `${day}T${hhmm}:00+08:00`;
const swipe = (doorId: number, card: string, at: string) =>
  s.call('POST', API.testSimulate, { token: admin, body: { kind: 'card.granted', doorId, card, at } });

describe('access configuration', () => {
  it("stores a swipe's decision in the event's own insert: a console told of the event finds its decision at once", async () => {
    const card = await activeCard();
    const door = await firstDoor(northwind);
    const seen: Promise<unknown>[] = [];
    const off = s.app.pipeline.onCommitted((_c, e) => {
      seen.push(s.db.query('select decision, identity_id, swipe from events where id = $1', [e.id]).then((r) => r.rows[0]));
    });
    try {
      expect((await swipe(door, card.number, local('10:00'))).status).toBe(200);
    } finally {
      off();
    }
    const rows = (await Promise.all(seen)) as { decision: string | null; identity_id: number | null; swipe: { card: string } | null }[];
    const mine = rows.find((r) => r.swipe?.card === card.number);
    expect(mine).toMatchObject({ decision: expect.stringMatching(/^(granted|denied)$/) });
  });

  it('refuses overlapping, empty and inverted windows with the field named, and saves nothing', async () => {
    const before = await s.count('select 1 from schedules');
    const r = await s.call('POST', SCHEDULES, {
      token: admin,
      body: {
        name: 'Bad',
        windows: [
          { day: '1', start: '08:00', end: '12:00' },
          { day: '1', start: '11:00', end: '13:00' },
          { day: '2', start: '09:00', end: '09:00' },
        ],
        specialWindows: [{ kind: 'holiday', start: '14:00', end: '10:00' }],
      },
    });
    expect(r.status).toBe(400);
    const fields = r.body.violations.map((v: any) => v.field);
    expect(fields).toEqual(expect.arrayContaining(['windows.1.start', 'windows.2.end', 'specialWindows.0.end']));
    expect(r.body.violations.find((v: any) => v.field === 'windows.1.start').message).toMatch(/overlaps window 1/);
    // a malformed time is the schema's violation, on the field too
    const bad = await s.call('POST', SCHEDULES, { token: admin, body: { name: 'Bad2', windows: [{ day: '1', start: '8am', end: '12:00' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.violations[0].field).toBe('windows.0.start');
    expect(await s.count('select 1 from schedules')).toBe(before);
  });

  it('refuses a card format whose fields overlap', async () => {
    const r = await s.call('POST', FORMATS, {
      token: admin,
      body: { name: 'Overlap', bits: 26, facilityStart: 1, facilityLength: 10, cardStart: 9, cardLength: 16, parity: [] },
    });
    expect(r.status).toBe(400);
    expect(r.body.violations).toContainEqual({ field: 'facilityStart', message: 'overlaps card', code: 'cardFormat.overlaps', values: { other: 'card' } });
    const ok = await s.call('POST', FORMATS, {
      token: admin,
      body: {
        name: 'Custom 30',
        bits: 30,
        facilityStart: 1,
        facilityLength: 12,
        cardStart: 13,
        cardLength: 16,
        parity: [
          { bit: 0, type: 'even', overStart: 1, overLength: 14 },
          { bit: 29, type: 'odd', overStart: 15, overLength: 14 },
        ],
      },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.parity).toHaveLength(2);
  });

  it('refuses a reference to another tenant\u2019s door (as the row\u2019s field), and nothing is saved', async () => {
    const theirs = await firstDoor(harbourId);
    const sched = (await s.call('GET', `${SCHEDULES}?q=Always`, { token: admin })).body.items[0].id;
    const before = await s.count('select 1 from access_groups');
    const r = await s.call('POST', GROUPS, {
      token: admin,
      body: {
        name: 'Sneaky',
        doors: [
          { doorId: await firstDoor(northwind), scheduleId: sched },
          { doorId: theirs, scheduleId: sched },
        ],
        members: [],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.violations).toContainEqual({
      field: 'doors.1.doorId',
      message: 'is not a door you may use',
      code: 'record.notYoursToUse',
      values: { what: 'door' },
    });
    expect(await s.count('select 1 from access_groups')).toBe(before);
    // and another tenant's group is 404, never 403
    const hg = (await s.call('GET', GROUPS, { token: harbour })).body.items[0].id;
    expect((await s.call('GET', `${GROUPS}/${hg}`, { token: admin })).status).toBe(404);
  });

  it('shows members both ways: the group lists its members, the identity its groups', async () => {
    const staff = (await s.call('GET', `${GROUPS}?q=Staff`, { token: admin })).body.items[0];
    const card = await activeCard();
    expect(staff.members).toContain(card.identity_id);
    const ident = await s.call('GET', `${API.identities}/${card.identity_id}`, { token: admin });
    expect(ident.body.accessGroupIds).toContain(staff.id);
    // saving the identity without the field keeps its groups (the group's form owns the membership)
    const { accessGroupIds: _ignored, id: _id, clientId: _c, createdAt: _ca, divisionName: _dn, ...rest } = ident.body;
    const put = await s.call('PUT', `${API.identities}/${card.identity_id}`, { token: admin, body: { ...rest, credentials: ident.body.credentials } });
    expect(put.status).toBe(200);
    expect(put.body.accessGroupIds).toContain(staff.id);
  });

  it('a schedule change reaches the next simulated swipe without a restart; the event keeps identity, decision and reason; Why? explains it', async () => {
    const door = await firstDoor(northwind);
    const card = await activeCard();
    // as seeded: Staff opens every door always
    const first = await swipe(door, card.number, local('18:01'));
    expect(first.status).toBe(200);
    expect(first.body.eventCode).toBe(5000);

    const day = await s.call('POST', SCHEDULES, {
      token: admin,
      body: { name: 'Day shift', windows: [0, 1, 2, 3, 4, 5, 6].map((d) => ({ day: String(d), start: '08:00', end: '18:00' })), specialWindows: [] },
    });
    expect(day.status).toBe(201);
    const staff = (await s.call('GET', `${GROUPS}?q=Staff`, { token: admin })).body.items[0];
    const doors = staff.doors.map((x: any) => (x.doorId === door ? { ...x, scheduleId: day.body.id } : x));
    const put = await s.call('PUT', `${GROUPS}/${staff.id}`, {
      token: admin,
      body: { name: staff.name, description: staff.description, doors, members: staff.members, updatedAt: staff.updatedAt },
    });
    expect(put.status).toBe(200);

    const late = await swipe(door, card.number, local('18:01'));
    expect(late.body.eventCode).toBe(5007);
    expect(late.body.message).toMatch(/outside schedule/);
    const stored = (await s.db.query<any>('select identity_id, decision, reason from events where id = $1', [late.body.id])).rows[0];
    expect(stored).toEqual({ identity_id: card.identity_id, decision: 'denied', reason: 'outside-schedule' });
    expect((await swipe(door, card.number, local('17:59'))).body.eventCode).toBe(5000);

    // Why?
    const why = await s.call('GET', `${API.events}/${late.body.id}/explain`, { token: operator });
    expect(why.status).toBe(200);
    expect(why.body.stored).toEqual({ reason: 'outside-schedule', decision: 'denied', identityId: card.identity_id });
    expect(why.body.now.reason).toBe('outside-schedule');
    expect(why.body.now.label).toBe('Access denied: outside schedule');
    expect(why.body.now.steps.map((x: any) => x.check)).toEqual(['credential', 'identity', 'door-mode', 'access-group', 'schedule']);
    expect(why.body.now.steps.at(-1)).toMatchObject({ ok: false, detail: expect.stringContaining('08:00–18:00') });
    expect(why.body.swipe).toMatchObject({ doorId: door, card: card.number, at: new Date(local('18:01')).toISOString() });
    // another tenant's event is 404, so is an event that is not a swipe, and a bad id is 400
    expect((await s.call('GET', `${API.events}/${late.body.id}/explain`, { token: harbour })).status).toBe(404);
    const forced = await s.call('POST', API.testSimulate, { token: admin, body: { kind: 'door.forced', doorId: door } });
    expect((await s.call('GET', `${API.events}/${forced.body.id}/explain`, { token: admin })).status).toBe(404);
    expect((await s.call('GET', `${API.events}/abc/explain`, { token: admin })).status).toBe(400);

    // the schedule is extended: the same swipe is granted at once
    const sched = (await s.call('GET', `${SCHEDULES}/${day.body.id}`, { token: admin })).body;
    const longer = await s.call('PUT', `${SCHEDULES}/${sched.id}`, {
      token: admin,
      body: {
        name: sched.name,
        description: null,
        windows: sched.windows.map((w: any) => ({ ...w, end: '19:00' })),
        specialWindows: [],
        updatedAt: sched.updatedAt,
      },
    });
    expect(longer.status).toBe(200);
    expect((await swipe(door, card.number, local('18:01'))).body.eventCode).toBe(5000);
    // the explainer re-runs against the current configuration: now it would be granted
    expect((await s.call('GET', `${API.events}/${late.body.id}/explain`, { token: admin })).body.now.reason).toBe('granted');

    // a holiday denies the same swipe at 10:00
    expect((await swipe(door, card.number, local('10:00'))).body.eventCode).toBe(5000);
    const holiday = await s.call('POST', SPECIAL, { token: admin, body: { name: 'Company day', date: '2026-11-24', yearly: false, kind: 'holiday' } });
    expect(holiday.status).toBe(201);
    const denied = await swipe(door, card.number, local('10:00'));
    expect(denied.body.eventCode).toBe(5008);
    expect((await s.db.query<any>('select reason from events where id = $1', [denied.body.id])).rows[0].reason).toBe('special-day');
    // and the next day is ordinary again
    expect((await swipe(door, card.number, local('10:00', '2026-11-25'))).body.eventCode).toBe(5000);
  });

  it('rebuilds only on change, not per swipe', async () => {
    const door = await firstDoor(northwind);
    const card = await activeCard();
    await swipe(door, card.number, local('12:00'));
    const builds = s.app.simulator.access.builds;
    for (let i = 0; i < 5; i++) await swipe(door, card.number, local('12:00'));
    expect(s.app.simulator.access.builds).toBe(builds);
  });

  it('soft anti-passback lets a repeat entry through and raises an alarm; hard denies it', async () => {
    const door = await firstDoor(northwind);
    const card = await activeCard();
    const zone = await s.call('POST', '/event/manage/access-zones', { token: admin, body: { name: 'Lab', antiPassback: 'soft', forgiveMinutes: 0 } });
    expect(zone.status).toBe(201);
    await s.db.query('update doors set entry_zone_id = $2 where id = $1', [door, zone.body.id]);
    s.app.simulator.access.changed(northwind);
    await s.app.simulator.resetZones(northwind);
    expect((await swipe(door, card.number, local('12:00', '2026-11-26'))).body.eventCode).toBe(5000);
    const alarmsBefore = await s.count('select 1 from events where event_code = 5020');
    expect((await swipe(door, card.number, local('12:01', '2026-11-26'))).body.eventCode).toBe(5000);
    expect(await s.count('select 1 from events where event_code = 5020 and alert')).toBe(alarmsBefore + 1);
    const z = (await s.call('GET', `/event/manage/access-zones/${zone.body.id}`, { token: admin })).body;
    expect(
      (
        await s.call('PUT', `/event/manage/access-zones/${z.id}`, {
          token: admin,
          body: { name: z.name, description: null, antiPassback: 'hard', forgiveMinutes: 0, updatedAt: z.updatedAt },
        })
      ).status,
    ).toBe(200);
    const hard = await swipe(door, card.number, local('12:02', '2026-11-26'));
    expect(hard.body.eventCode).toBe(5009);
    // deleting the zone a door uses is refused, naming what uses it
    expect((await s.call('DELETE', `/event/manage/access-zones/${z.id}`, { token: admin })).status).toBe(409);
    await s.db.query('update doors set entry_zone_id = null where id = $1', [door]);
    s.app.simulator.access.changed(northwind);
  });

  it('a lockdown denies every door the caller controls, refuses opening one, and its release gives each door its mode back', async () => {
    const doors = (await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id', [northwind])).rows.map((r) => Number(r.id));
    const [door, second] = doors;
    const card = await activeCard();
    await s.db.query(`update doors set mode = 'card-pin' where id = $1`, [second]);
    s.app.simulator.access.changed(northwind);
    expect((await swipe(door, card.number, local('10:00', '2026-11-27'))).body.eventCode).toBe(5000);

    expect((await s.call('POST', `${API.doors}/lockdown`, { token: admin, body: { on: 'yes' } })).body.violations).toEqual([
      { field: 'on', message: 'must be yes or no', code: 'value.notYesNo', values: {} },
    ]);
    expect((await s.call('POST', `${API.doors}/lockdown`, { token: await s.login('reception'), body: { on: true } })).status).toBe(403);
    const on = await s.call('POST', `${API.doors}/lockdown`, { token: admin, body: { on: true } });
    expect(on.body).toEqual({ on: true, doors: doors.length });
    expect(await s.count(`select 1 from doors where client_id = $1 and mode = 'locked-down' and status = 'locked'`, [northwind])).toBe(doors.length);
    expect(await s.count(`select 1 from doors where client_id = $1 and mode = 'locked-down'`, [harbourId])).toBe(0);
    expect((await swipe(door, card.number, local('10:01', '2026-11-27'))).body.eventCode).toBe(5004);
    const unlock = await s.call('POST', `${API.doors}/${door}/commands`, { token: admin, body: { command: 'unlock', force: true } });
    expect(unlock.status).toBe(409);
    expect(await s.count(`select 1 from audit_log where action = 'lockdown' and client_id = $1`, [northwind])).toBe(1);

    const off = await s.call('POST', `${API.doors}/lockdown`, { token: admin, body: { on: false } });
    expect(off.body).toEqual({ on: false, doors: doors.length });
    const modes = (await s.db.query<{ id: number; mode: string }>('select id, mode from doors where id = any($1::int[])', [[door, second]])).rows;
    expect(Object.fromEntries(modes.map((m) => [Number(m.id), m.mode]))).toEqual({ [door]: 'card', [second]: 'card-pin' });
    expect((await swipe(door, card.number, local('10:02', '2026-11-27'))).body.eventCode).toBe(5000);
    await s.db.query(`update doors set mode = 'card' where id = $1`, [second]);
    s.app.simulator.access.changed(northwind);
  });

  it('a lockdown of one division holds only its doors and those of the divisions inside it; another division is not found', async () => {
    const divisions = (
      await s.db.query<{ id: number; parent_id: number | null }>('select id, parent_id from divisions where client_id = $1 order by id', [northwind])
    ).rows;
    // a division with a child, and the doors of both
    const parent =
      divisions.find((d) => divisions.some((c) => c.parent_id === d.id) && d.parent_id !== null) ??
      divisions.find((d) => divisions.some((c) => c.parent_id === d.id))!;
    const inside = [parent.id, ...divisions.filter((d) => d.parent_id === parent.id).map((d) => d.id)];
    const held = (
      await s.db.query<{ id: number }>('select id from doors where client_id = $1 and division_id = any($2::int[]) order by id', [northwind, inside])
    ).rows.map((r) => Number(r.id));
    const all = await s.count('select 1 from doors where client_id = $1', [northwind]);
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThan(all);
    const on = await s.call('POST', `${API.doors}/lockdown`, { token: admin, body: { on: true, divisionId: parent.id } });
    expect(on.body).toEqual({ on: true, doors: held.length });
    const locked = (await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and mode = 'locked-down' order by id`, [northwind])).rows.map(
      (r) => Number(r.id),
    );
    expect(locked).toEqual(held);
    const audit = await s.db.query<{ after: any }>(`select after from audit_log where action = 'lockdown' and client_id = $1 order by id desc limit 1`, [
      northwind,
    ]);
    expect(audit.rows[0].after).toEqual({ doors: held, divisionId: parent.id });
    const theirs = Number((await s.db.query<{ id: number }>('select id from divisions where client_id = $1 order by id limit 1', [harbourId])).rows[0].id);
    expect((await s.call('POST', `${API.doors}/lockdown`, { token: admin, body: { on: false, divisionId: theirs } })).status).toBe(404);
    const off = await s.call('POST', `${API.doors}/lockdown`, { token: admin, body: { on: false, divisionId: parent.id } });
    expect(off.body).toEqual({ on: false, doors: held.length });
    expect(await s.count(`select 1 from doors where client_id = $1 and mode = 'locked-down'`, [northwind])).toBe(0);
  });

  it('counts who is inside a zone, lists them, and an operator forgives one: they may badge in again (issue 12)', async () => {
    const zone = (await s.call('POST', '/event/manage/access-zones', { token: admin, body: { name: 'Vault', antiPassback: 'hard', forgiveMinutes: 0 } })).body
      .id;
    const door = Number((await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and name = 'Finance Vault'`, [northwind])).rows[0].id);
    await s.db.query('update doors set entry_zone_id = $2 where id = $1', [door, zone]);
    s.app.simulator.access.changed(northwind);
    await s.app.simulator.resetZones(northwind);
    const card = await activeCard();
    expect((await swipe(door, card.number, local('10:00', '2026-11-30'))).body.eventCode).toBe(5000);
    const occupancy = await s.call('GET', '/event/manage/access-zones/occupancy', { token: admin });
    expect(occupancy.body.items).toContainEqual({ zoneId: zone, count: 1 });
    const inside = await s.call('GET', `/event/manage/access-zones/${zone}/occupants`, { token: admin });
    expect(inside.body.zone).toEqual({ id: zone, name: 'Vault', antiPassback: 'hard' });
    expect(inside.body.occupants).toEqual([
      { identityId: card.identity_id, name: expect.any(String), since: new Date(local('10:00', '2026-11-30')).toISOString() },
    ]);
    // hard anti-passback: in again without going out is denied, until forgiven
    expect((await swipe(door, card.number, local('10:05', '2026-11-30'))).body.eventCode).toBe(5009);
    expect((await s.call('POST', `/event/manage/access-zones/${zone}/forgive`, { token: admin, body: { identityId: 'x' } })).status).toBe(400);
    expect((await s.call('POST', `/event/manage/access-zones/${zone}/forgive`, { token: harbour, body: { identityId: card.identity_id } })).status).toBe(404);
    expect((await s.call('GET', `/event/manage/access-zones/${zone}/occupants`, { token: await s.login('hr') })).status).toBe(403);
    const forgiven = await s.call('POST', `/event/manage/access-zones/${zone}/forgive`, { token: admin, body: { identityId: card.identity_id } });
    expect(forgiven.status).toBe(200);
    expect((await s.call('GET', `/event/manage/access-zones/${zone}/occupants`, { token: admin })).body.occupants).toEqual([]);
    expect((await s.call('POST', `/event/manage/access-zones/${zone}/forgive`, { token: admin, body: { identityId: card.identity_id } })).status).toBe(409);
    expect(await s.count(`select 1 from audit_log where action = 'forgive' and entity_id = $1`, [String(zone)])).toBe(1);
    expect((await swipe(door, card.number, local('10:06', '2026-11-30'))).body.eventCode).toBe(5000);
    await s.db.query('update doors set entry_zone_id = null where id = $1', [door]);
    s.app.simulator.access.changed(northwind);
  });

  it('who is inside lives in the database: a second server (or one restarted) counts them and keeps hard anti-passback', async () => {
    const zone = (await s.call('POST', '/event/manage/access-zones', { token: admin, body: { name: 'Server room', antiPassback: 'hard', forgiveMinutes: 0 } }))
      .body.id;
    const door = Number((await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and name = 'Finance Vault'`, [northwind])).rows[0].id);
    await s.db.query('update doors set entry_zone_id = $2 where id = $1', [door, zone]);
    s.app.simulator.access.changed(northwind);
    await s.app.simulator.resetZones(northwind);
    const card = await activeCard();
    expect((await swipe(door, card.number, local('09:00', '2026-12-01'))).body.eventCode).toBe(5000);
    expect(await s.count('select 1 from zone_presence where identity_id = $1 and zone_id = $2', [card.identity_id, zone])).toBe(1);

    const second = await buildServer({ db: s.db, jwtSecret: 'test-secret-of-enough-length', staticDir: null, testHooks: true });
    try {
      const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
        second.inject({ method, url, headers: { authorization: `Bearer ${admin}` }, ...(payload === undefined ? {} : { payload }) });
      expect((await call('GET', '/event/manage/access-zones/occupancy')).json().items).toContainEqual({ zoneId: zone, count: 1 });
      expect((await call('GET', `/event/manage/access-zones/${zone}/occupants`)).json().occupants).toEqual([
        expect.objectContaining({ identityId: card.identity_id }),
      ]);
      // in again without going out is denied by the other server too
      const again = await call('POST', API.testSimulate, { kind: 'card.granted', doorId: door, card: card.number, at: local('09:05', '2026-12-01') });
      expect(again.json().eventCode).toBe(5009);
      // the other server forgives: the first lets them in again, without a restart
      expect((await call('POST', `/event/manage/access-zones/${zone}/forgive`, { identityId: card.identity_id })).statusCode).toBe(200);
      expect((await swipe(door, card.number, local('09:06', '2026-12-01'))).body.eventCode).toBe(5000);
    } finally {
      await second.close();
    }
    await s.db.query('update doors set entry_zone_id = null where id = $1', [door]);
    s.app.simulator.access.changed(northwind);
  });
});
