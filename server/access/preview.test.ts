// What-if preview (issue 12): who gains and who loses which doors over the next 7 days if an access group, a schedule
// or a special date were saved as the form has it — against the real server's access index; nothing is saved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, accessGroupsResource, identitiesResource, schedulesResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { PREVIEW_PATH } from './routes';

let s: TestServer;
let admin: string, hr: string, harbour: string;
let northwind: number;
let newcomer: number, door: number, always: number, weekdays: number, group: number;

beforeAll(async () => {
  s = await startTestServer();
  [admin, hr, harbour] = await Promise.all(['admin', 'hr', 'harbour'].map((u) => s.login(u)));
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  admin = (await s.call('PUT', API.meClient, { token: admin, body: { clientId: northwind } })).body.token;
  const division = Number((await s.db.query<{ id: number }>('select id from divisions where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
  // somebody in no access group yet
  newcomer = (
    await s.call('POST', identitiesResource.api, {
      token: admin,
      body: { firstName: 'Nia', lastName: 'Newcomer', employeeNo: 'WHATIF-1', divisionId: division, status: 'active' },
    })
  ).body.id;
  door = Number((await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and name = 'Store Room'`, [northwind])).rows[0].id);
  always = Number((await s.db.query<{ id: number }>(`select id from schedules where client_id = $1 and name = 'Always'`, [northwind])).rows[0].id);
  weekdays = (
    await s.call('POST', schedulesResource.api, {
      token: admin,
      body: { name: 'Weekdays 8-18', windows: [1, 2, 3, 4, 5].map((d) => ({ day: String(d), start: '08:00', end: '18:00' })), specialWindows: [] },
    })
  ).body.id;
  group = (
    await s.call('POST', accessGroupsResource.api, {
      token: admin,
      body: { name: 'Stores', doors: [{ doorId: door, scheduleId: weekdays }], members: [newcomer] },
    })
  ).body.id;
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const preview = (body: unknown, token = admin) => s.call('POST', PREVIEW_PATH, { token, body });

describe('what-if preview', () => {
  it('a new group for somebody without access: a gain of every hour of the week at its door', async () => {
    const r = await preview({
      resource: 'accessGroups',
      id: null,
      values: { name: 'Night stores', doors: [{ doorId: door, scheduleId: always }], members: [newcomer] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ days: 7, gained: 1, lost: 0, identitiesGaining: 1, identitiesLosing: 0 });
    expect(r.body.gains[0]).toMatchObject({ identityId: newcomer, identityName: 'Nia Newcomer', doorId: door, doorName: 'Store Room', hoursAfter: 168 });
    expect(r.body.gains[0].hoursBefore).toBeGreaterThan(0); // the weekday group already opens it some hours
    expect(r.body.gains[0].hoursBefore).toBeLessThan(168);
    expect(await s.count(`select 1 from access_groups where name = 'Night stores'`)).toBe(0);
  });

  it('a schedule emptied, a member taken out, a holiday: losses of exactly those hours', async () => {
    const emptied = await preview({ resource: 'schedules', id: weekdays, values: { name: 'Weekdays 8-18', windows: [], specialWindows: [] } });
    expect(emptied.body).toMatchObject({ gained: 0, lost: 1 });
    const [loss] = emptied.body.losses;
    expect(loss).toMatchObject({ identityId: newcomer, doorId: door, hoursAfter: 0 });
    expect(loss.hoursBefore).toBeGreaterThanOrEqual(40); // five working days of ten hours, less what has passed of today
    const outOfGroup = await preview({
      resource: 'accessGroups',
      id: group,
      values: { name: 'Stores', doors: [{ doorId: door, scheduleId: weekdays }], members: [] },
    });
    expect(outOfGroup.body.losses).toEqual([loss]);
    // a holiday on a weekday two to six days ahead: the weekday schedule names no holiday, so it is closed that day
    const tz = (await s.db.query<{ timezone: string }>('select timezone from clients where id = $1', [northwind])).rows[0].timezone;
    const day = [2, 3, 4, 5, 6]
      .map((n) => new Date(Date.now() + n * 86_400_000))
      .find((d) => !['Sat', 'Sun'].includes(d.toLocaleDateString('en-US', { weekday: 'short', timeZone: tz })))!;
    const date = day.toLocaleDateString('en-CA', { timeZone: tz });
    const holiday = await preview({ resource: 'specialDates', id: null, values: { name: 'Stocktake', date, yearly: false, kind: 'holiday' } });
    expect(holiday.status).toBe(200);
    expect(holiday.body.losses).toEqual([{ ...loss, hoursAfter: loss.hoursBefore - 10 }]);
    expect(holiday.body.gained).toBe(0);
  });

  it('counts people and doors apart: three people losing one door are 3 people, 1 door (issue 29: it said 3 doors)', async () => {
    const division = Number((await s.db.query<{ id: number }>('select id from divisions where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
    const crew: number[] = [];
    for (const [i, last] of ['Able', 'Baker', 'Cole'].entries()) {
      crew.push(
        (
          await s.call('POST', identitiesResource.api, {
            token: admin,
            body: { firstName: 'Dock', lastName: last, employeeNo: `WHATIF-DOCK-${i}`, divisionId: division, status: 'active' },
          })
        ).body.id,
      );
    }
    const other = Number(
      (await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and id <> $2 order by id limit 1`, [northwind, door])).rows[0].id,
    );
    const bayDoors = [
      { doorId: door, scheduleId: always },
      { doorId: other, scheduleId: always },
    ];
    const bay = (await s.call('POST', accessGroupsResource.api, { token: admin, body: { name: 'Loading bay', doors: bayDoors, members: crew } })).body.id;
    // one door taken out of the group: three people lose it
    const oneDoor = await preview({ resource: 'accessGroups', id: bay, values: { name: 'Loading bay', doors: [bayDoors[0]], members: crew } });
    expect(oneDoor.status).toBe(200);
    expect(oneDoor.body).toMatchObject({ lost: 3, identitiesLosing: 3, doorsLosing: 1, gained: 0, identitiesGaining: 0, doorsGaining: 0 });
    expect(new Set(oneDoor.body.losses.map((p: { doorId: number }) => p.doorId))).toEqual(new Set([other]));
    // everyone taken out: three people lose two doors, six pairs
    const nobody = await preview({ resource: 'accessGroups', id: bay, values: { name: 'Loading bay', doors: bayDoors, members: [] } });
    expect(nobody.body).toMatchObject({ lost: 6, identitiesLosing: 3, doorsLosing: 2 });
    // one more door for the same three: 3 people gain 1 door
    const third = Number(
      (await s.db.query<{ id: number }>(`select id from doors where client_id = $1 and id not in ($2, $3) order by id limit 1`, [northwind, door, other]))
        .rows[0].id,
    );
    const grown = await preview({
      resource: 'accessGroups',
      id: bay,
      values: { name: 'Loading bay', doors: [...bayDoors, { doorId: third, scheduleId: always }], members: crew },
    });
    expect(grown.body).toMatchObject({ gained: 3, identitiesGaining: 3, doorsGaining: 1, lost: 0, doorsLosing: 0 });
  });

  it('refuses what a save would refuse, names the field, and keeps tenants and privileges apart', async () => {
    const noName = await preview({ resource: 'accessGroups', id: null, values: { doors: [], members: [] } });
    expect(noName.status).toBe(400);
    expect(noName.body.violations.map((v: { field: string }) => v.field)).toContain('name');
    const theirDoor = Number((await s.db.query<{ id: number }>('select id from doors where client_id <> $1 order by id limit 1', [northwind])).rows[0].id);
    const foreign = await preview({
      resource: 'accessGroups',
      id: null,
      values: { name: 'X', doors: [{ doorId: theirDoor, scheduleId: always }], members: [] },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.violations).toEqual([{ field: 'doors.0.doorId', message: 'does not exist', code: 'record.doesNotExist', values: {} }]);
    const badWindow = await preview({
      resource: 'schedules',
      id: weekdays,
      values: { name: 'W', windows: [{ day: '1', start: '25:00', end: '18:00' }], specialWindows: [] },
    });
    expect(badWindow.status).toBe(400);
    expect(badWindow.body.violations[0].field).toBe('windows.0.start');
    expect((await preview({ resource: 'identities', id: null, values: {} })).status).toBe(400);
    expect((await preview({ resource: 'accessGroups', id: group, values: { name: 'Stores', doors: [], members: [] } }, hr)).status).toBe(403);
    expect((await preview({ resource: 'accessGroups', id: group, values: { name: 'Stores', doors: [], members: [] } }, harbour)).status).toBe(404);
  });
});
