// Daily Attendance [3.2.0] against the real server and database: a team's day in the client's zone (Northwind,
// UTC+8) — present, late by the schedule's grace, absent, on leave whatever the swipes, a day off on a weekday
// without a shift — the team filter, the day's bounds in the client's zone, privileges, tenants and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, ATTENDANCE_SUMMARY_API, DAILY_ATTENDANCE_API, timesheetResource, type AttendanceSummary, type DailyAttendance } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let hr: string, operator: string, harbour: string;
let team: number;
const ids: Record<string, number> = {};
const MONDAY = '2026-11-02';

beforeAll(async () => {
  s = await startTestServer();
  [hr, operator, harbour] = await Promise.all([s.login('hr'), s.login('operator'), s.login('harbour')]);
  const q = async (sql: string, p: unknown[] = []) => (await s.db.query<any>(sql, p)).rows;
  const [{ id: client, hq }] = await q(`select c.id, (select id from divisions where client_id = c.id and parent_id is null order by id limit 1) hq from clients c where code = 'NORTHWIND'`);
  const [{ id: schedule }] = await q(`insert into work_schedules (client_id, name, grace_minutes) values ($1, 'Early shift (test)', 10) returning id`, [client]);
  await q(`insert into work_schedule_shifts (work_schedule_id, client_id, day, start_time, end_time) values ($1, $2, '1', '08:00', '16:00')`, [schedule, client]);
  [{ id: team }] = await q(`insert into teams (client_id, name, work_schedule_id) values ($1, 'Dock crew (test)', $2) returning id`, [client, schedule]);
  for (const name of ['Ontime', 'Tardy', 'Missing', 'Leaving']) {
    [{ id: ids[name] }] = await q(`insert into identities (client_id, first_name, last_name, employee_no, division_id, status) values ($1, 'Test', $2, 'T-' || $2, $3, 'active') returning id`, [client, name, hq]);
    await q('insert into team_members (team_id, identity_id) values ($1, $2)', [team, ids[name]]);
  }
  const swipe = (who: string, at: string, code = 5000) => q(`insert into events (client_id, event_code, event_source_id, event_point_id, message, identity_id, decision, at)
    values ($1, $2, 'd1', 'd1', 'test', $3, 'granted', $4)`, [client, code, ids[who], at]);
  await swipe('Ontime', `${MONDAY}T07:55:00+08:00`);
  await swipe('Ontime', `${MONDAY}T12:00:00+08:00`);
  await swipe('Ontime', `${MONDAY}T16:30:00+08:00`);
  await swipe('Tardy', `${MONDAY}T08:25:00+08:00`); // 25 minutes late, one swipe only
  await swipe('Tardy', `${MONDAY}T08:30:00+08:00`, 5001); // a denied swipe is no clocking
  await swipe('Missing', '2026-11-01T23:50:00+08:00'); // Sunday night in the client's zone, Monday in UTC's
  await swipe('Missing', '2026-11-03T00:05:00+08:00'); // Tuesday just after midnight, still Monday in UTC
  await swipe('Leaving', `${MONDAY}T08:00:00+08:00`);
  const [{ id: category }] = await q(`select id from leave_categories where client_id = $1 and code = 'AL'`, [client]);
  await q(`insert into leave_records (client_id, identity_id, category_id, from_date, to_date) values ($1, $2, $3, '2026-10-30', $4)`, [client, ids.Leaving, category, MONDAY]);
}, 60_000);
afterAll(async () => { await s?.close(); });

const day = async (date: string, token = hr, extra = `&teamId=${team}`) => s.call('GET', `${DAILY_ATTENDANCE_API}?date=${date}${extra}`, { token });

describe('daily attendance', () => {
  it('says who was present, late, absent and on leave on a working day, in the client\u2019s zone', async () => {
    const r = await day(MONDAY);
    expect(r.status).toBe(200);
    const body = r.body as DailyAttendance;
    expect(body.zone).toBe('Asia/Kuala_Lumpur');
    const by = Object.fromEntries(body.rows.map((x) => [x.name, x]));
    expect(Object.keys(by)).toEqual(['Leaving, Test', 'Missing, Test', 'Ontime, Test', 'Tardy, Test']);
    expect(by['Ontime, Test']).toMatchObject({ status: 'present', shiftStart: '08:00', shiftEnd: '16:00', workedMinutes: 515, lateMinutes: null, team: 'Dock crew (test)',
      firstIn: new Date(`${MONDAY}T07:55:00+08:00`).toISOString(), lastOut: new Date(`${MONDAY}T16:30:00+08:00`).toISOString() });
    expect(by['Tardy, Test']).toMatchObject({ status: 'late', lateMinutes: 25, workedMinutes: null, lastOut: null });
    expect(by['Missing, Test']).toMatchObject({ status: 'absent', firstIn: null });
    expect(by['Leaving, Test']).toMatchObject({ status: 'on-leave', leave: 'Annual leave' });
  });

  it('a weekday without a shift is a day off; a day ahead is not yet', async () => {
    const tuesday = (await day('2026-11-03')).body as DailyAttendance;
    expect(tuesday.rows.map((x) => x.status)).toEqual(['day-off', 'day-off', 'day-off', 'day-off']);
    // Missing's swipe just after midnight is Tuesday's, shown on a day off
    expect(tuesday.rows.find((x) => x.name === 'Missing, Test')!.firstIn).toBe(new Date('2026-11-03T00:05:00+08:00').toISOString());
    const ahead = (await day('2099-11-02')).body as DailyAttendance; // a Monday
    expect(ahead.rows.map((x) => x.status)).toEqual(['not-yet', 'not-yet', 'not-yet', 'not-yet']);
  });

  it('without a team, lists every team; another client sees none of them', async () => {
    const all = (await day(MONDAY, hr, '')).body as DailyAttendance;
    expect(new Set(all.rows.map((x) => x.team))).toEqual(new Set(['Dock crew (test)', 'Head office']));
    const theirs = await day(MONDAY, harbour);
    expect(theirs.status).toBe(200);
    expect(theirs.body.rows).toEqual([]);
  });

  it('needs 3.2.0, and names a bad date or team', async () => {
    expect((await day(MONDAY, operator)).status).toBe(403);
    for (const [query, field] of [['date=2026-02-30', 'date'], ['date=tomorrow', 'date'], [`date=${MONDAY}&teamId=x`, 'teamId'], [`date=${MONDAY}&teamId=0`, 'teamId'], ['', 'date']]) {
      const r = await s.call('GET', `${DAILY_ATTENDANCE_API}?${query}`, { token: hr });
      expect(r.status).toBe(400);
      expect(r.body.violations.map((v: { field: string }) => v.field)).toEqual([field]);
    }
  });
});

describe('attendance summaries', () => {
  const summary = (query: string, token = hr) => s.call('GET', `${ATTENDANCE_SUMMARY_API}?${query}`, { token });
  it('count each member\u2019s days of a period as daily attendance does', async () => {
    const r = await summary(`from=${MONDAY}&to=2026-11-03&teamId=${team}`);
    expect(r.status).toBe(200);
    const body = r.body as AttendanceSummary;
    expect(body).toMatchObject({ from: MONDAY, to: '2026-11-03', zone: 'Asia/Kuala_Lumpur', days: 2 });
    const by = Object.fromEntries(body.rows.map((x) => [x.name, x]));
    expect(by['Ontime, Test']).toMatchObject({ scheduledDays: 1, presentDays: 1, lateDays: 0, absentDays: 0, leaveDays: 0, workedMinutes: 515 });
    expect(by['Tardy, Test']).toMatchObject({ scheduledDays: 1, presentDays: 1, lateDays: 1, lateMinutes: 25, workedMinutes: 0 });
    expect(by['Missing, Test']).toMatchObject({ scheduledDays: 1, presentDays: 0, absentDays: 1 });
    expect(by['Leaving, Test']).toMatchObject({ scheduledDays: 0, leaveDays: 1 });
  });
  it('count no day still ahead, and refuse a period backwards or too long, naming the field', async () => {
    expect((await summary('from=2099-01-01&to=2099-01-31')).body).toMatchObject({ days: 0, rows: [] });
    for (const [query, field] of [[`from=${MONDAY}&to=2026-11-01`, 'to'], ['from=2026-01-01&to=2026-03-31', 'to'], ['from=2026-02-30&to=2026-03-01', 'from'], [`from=${MONDAY}`, 'to']]) {
      const bad = await summary(query);
      expect([query, bad.status, bad.body.violations?.map((v: { field: string }) => v.field)]).toEqual([query, 400, [field]]);
    }
    expect((await summary(`from=${MONDAY}&to=${MONDAY}`, operator)).status).toBe(403);
  });
});

describe('the timesheet: built from daily attendance [3.3], amended with a reason [3.4]', () => {
  const build = (body: Record<string, unknown>, token = hr) => s.call('POST', API.timesheetBuild, { token, body });
  const entry = async (name: string, day = MONDAY) => {
    const r = await s.call('GET', `${timesheetResource.api}?day=${day}&q=${encodeURIComponent(name)}`, { token: hr });
    return r.body.items[0];
  };
  it('writes the period\u2019s days as daily attendance counts them, with one audit row', async () => {
    const r = await build({ from: MONDAY, to: '2026-11-03', teamId: team });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ written: 8, keptAmended: 0, days: 2 });
    expect(await entry('Tardy')).toMatchObject({ identityName: 'Tardy, Test', team: 'Dock crew (test)', status: 'late', lateMinutes: 25, shiftStart: '08:00', amended: false });
    expect(await entry('Ontime')).toMatchObject({ status: 'present', workedMinutes: 515 });
    expect(await entry('Ontime', '2026-11-03')).toMatchObject({ status: 'day-off' });
    expect(await s.count(`select 1 from audit_log where entity = 'timesheet day' and action = 'build'`)).toBe(1);
  });
  it('an amendment needs a reason and an out after the in; the server works the day out again; a rebuild keeps it', async () => {
    const tardy = await entry('Tardy');
    const put = (body: Record<string, unknown>, token = hr) => s.call('PUT', `${timesheetResource.api}/${tardy.id}`, { token, body });
    const times = { firstIn: `${MONDAY}T07:58:00+08:00`, lastOut: `${MONDAY}T16:05:00+08:00` };
    expect((await put(times)).body.violations.map((v: { field: string }) => v.field)).toEqual(['amendReason']);
    expect((await put({ ...times, lastOut: `${MONDAY}T07:00:00+08:00`, amendReason: 'x' })).body.violations.map((v: { field: string }) => v.field)).toEqual(['lastOut']);
    expect((await put({ ...times, amendReason: 'Badge left at home' }, harbour)).status).toBe(404);
    expect((await put({ ...times, amendReason: 'Badge left at home' }, operator)).status).toBe(403);
    const ok = await put({ ...times, amendReason: 'Badge left at home' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'present', lateMinutes: null, workedMinutes: 487, amended: true, amendReason: 'Badge left at home', amendedBy: 'Hana HR' });
    const again = await build({ from: MONDAY, to: MONDAY, teamId: team });
    expect(again.body).toEqual({ written: 3, keptAmended: 1, days: 1 });
    expect(await entry('Tardy')).toMatchObject({ status: 'present', amended: true, workedMinutes: 487 });
  });
  it('refuses a period backwards or too long naming the field, days still ahead are not built, and needs 3.3', async () => {
    expect((await build({ from: MONDAY, to: '2026-11-01' })).body.violations.map((v: { field: string }) => v.field)).toEqual(['to']);
    expect((await build({ from: '2026-01-01', to: '2026-06-01' })).body.violations.map((v: { field: string }) => v.field)).toEqual(['to']);
    expect((await build({ from: '2099-01-01', to: '2099-01-31' })).body).toEqual({ written: 0, keptAmended: 0, days: 0 });
    expect((await build({ from: MONDAY, to: MONDAY }, operator)).status).toBe(403);
  });
});
