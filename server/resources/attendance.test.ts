// Attendance set-up and leave (§2 Attendance 3.0, 3.1, 3.7, 3.8): what the generated catalogue tests do not say on
// their own — a leave row names its member of staff as the identities list does ("Last, First"), a leave that ends
// before it starts is refused on "To", the view code alone reads but cannot change, a deleted member of staff takes
// their leave with them, and a team keeps its schedule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaveCategoriesResource, leaveResource, teamsResource, workSchedulesResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let hr: string, auditor: string;

beforeAll(async () => {
  s = await startTestServer();
  [hr, auditor] = await Promise.all([s.login('hr'), s.login('auditor')]);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('leave', () => {
  it('names the member of staff "Last, First", refuses a leave ending before it starts, and is read-only for the view code', async () => {
    const someone = (
      await s.db.query<{ id: number; first_name: string; last_name: string }>(
        `select i.id, i.first_name, i.last_name from identities i join clients c on c.id = i.client_id where c.code = 'NORTHWIND' order by i.id desc limit 1`,
      )
    ).rows[0];
    const categories = await s.call('GET', `${leaveCategoriesResource.api}?size=10`, { token: hr });
    const sick = categories.body.items.find((c: { code: string }) => c.code === 'SL');
    const backwards = await s.call('POST', leaveResource.api, {
      token: hr,
      body: { identityId: someone.id, categoryId: sick.id, fromDate: '2026-12-10', toDate: '2026-12-09' },
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.violations.map((v: { field: string }) => v.field)).toEqual(['toDate']);

    const made = await s.call('POST', leaveResource.api, {
      token: hr,
      body: { identityId: someone.id, categoryId: sick.id, fromDate: '2026-12-10', toDate: '2026-12-11', note: 'Flu' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      identityName: `${someone.last_name}, ${someone.first_name}`,
      categoryName: 'Sick leave',
      fromDate: '2026-12-10',
      toDate: '2026-12-11',
    });
    // sorted by the name as shown
    const sorted = await s.call('GET', `${leaveResource.api}?sort=identityName,asc&size=50`, { token: hr });
    expect(sorted.status).toBe(200);
    expect(sorted.body.items.map((r: { id: number }) => r.id)).toContain(made.body.id);

    // the auditor holds 3.8.0 and not 3.8.1: reads the record, cannot change or add one
    expect((await s.call('GET', `${leaveResource.api}/${made.body.id}`, { token: auditor })).status).toBe(200);
    expect((await s.call('PUT', `${leaveResource.api}/${made.body.id}`, { token: auditor, body: { ...made.body, note: 'changed' } })).status).toBe(403);
    expect(
      (
        await s.call('POST', leaveResource.api, {
          token: auditor,
          body: { identityId: someone.id, categoryId: sick.id, fromDate: '2026-12-20', toDate: '2026-12-20' },
        })
      ).status,
    ).toBe(403);
    expect((await s.call('GET', `${leaveResource.api}/${made.body.id}`, { token: hr })).body.note).toBe('Flu');

    // leave never keeps a member of staff from being deleted: it goes with them
    const admin = await s.loginTo('admin', 'NORTHWIND');
    const gone = await s.call('DELETE', `/event/manage/identities/${someone.id}`, { token: admin });
    expect(gone.status).toBe(200);
    expect(await s.count('select 1 from leave_records where id = $1', [made.body.id])).toBe(0);
  });
});

describe('teams and work schedules', () => {
  it('keeps a team on its work schedule, and refuses to delete nothing it has no code for', async () => {
    const schedules = await s.call('GET', `${workSchedulesResource.api}?size=10`, { token: hr });
    const office = schedules.body.items.find((w: { name: string }) => w.name === 'Office hours');
    expect(office.shifts.map((x: { day: string; start: string; end: string }) => `${x.day} ${x.start}-${x.end}`)).toEqual([
      '1 09:00-17:00',
      '2 09:00-17:00',
      '3 09:00-17:00',
      '4 09:00-17:00',
      '5 09:00-17:00',
    ]);
    const night = await s.call('POST', workSchedulesResource.api, {
      token: hr,
      body: { name: 'Night', shifts: [{ day: '1', start: '22:00', end: '06:00' }], breakMinutes: 30, graceMinutes: 10 },
    });
    expect(night.status).toBe(201);
    const team = await s.call('POST', teamsResource.api, { token: hr, body: { name: 'Night crew', workScheduleId: night.body.id, members: [] } });
    expect(team.status).toBe(201);
    expect(team.body.workScheduleName).toBe('Night');
    // no delete code exists for teams or work schedules (§2): the routes are not there
    expect((await s.call('DELETE', `${teamsResource.api}/${team.body.id}`, { token: hr })).status).toBe(404);
    expect(await s.count('select 1 from teams where id = $1', [team.body.id])).toBe(1);
  });
});
