// The dashboard's answer per role (issue 10): a part is there only for holders of the privilege of the screen that
// owns its data, counts of rows with a division cover the user's divisions, and the charts' series are real.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, DashboardSummary, validate } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let northwind: number;
const tokens: Record<string, string> = {};
const dashboard = async (who: string) => {
  const r = await s.call('GET', API.dashboard, { token: tokens[who] });
  expect(r.status).toBe(200);
  expect(validate(r.body, DashboardSummary).ok).toBe(true);
  return r.body as DashboardSummary;
};
const keys = (d: DashboardSummary) => Object.keys(d).sort();

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  // an HR manager of the Warehouse only (a division below Operations)
  await s.db.query(
    `insert into users (username, password_hash, name, timezone, selected_client_id) select 'hr-warehouse', password_hash, 'Wanda Warehouse', timezone, selected_client_id from users where username = 'hr'`,
  );
  await s.db.query(
    `insert into user_grants (user_id, role_code, client_id, division_id)
    select u.id, 'hr-manager', $1, d.id from users u, divisions d where u.username = 'hr-warehouse' and d.client_id = $1 and d.name = 'Warehouse'`,
    [northwind],
  );
  for (const u of ['operator', 'reception', 'hr', 'auditor', 'hr-warehouse']) tokens[u] = await s.login(u);
  // a door command (in the audit trail) and a visitor on site today
  const door = Number((await s.db.query<{ id: number }>('select id from doors where client_id = $1 order by id limit 1', [northwind])).rows[0].id);
  expect((await s.call('POST', `${API.doors}/${door}/commands`, { token: tokens.operator, body: { command: 'lock' } })).status).toBe(200);
  const forced = await s.call('POST', API.testSimulate, { token: tokens.operator, body: { kind: 'door.forced', doorId: door } });
  expect(forced.status).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

describe('the dashboard per role', () => {
  it('gives HR identities and credentials, but no door commands or visitor actions in "recent changes"', async () => {
    const d = await dashboard('hr');
    expect(keys(d)).toEqual(['activeCredentials', 'attendanceToday', 'identities']);
    expect(d.recentChanges).toBeUndefined();
    expect(d.identities).toBe(await s.count('select 1 from identities where client_id = $1', [northwind]));
  });

  it('gives HR today’s attendance, counted as Daily Attendance shows today (issue 50), and the operator none', async () => {
    const d = await dashboard('hr');
    const today = (await s.db.query<{ d: string }>('select (now() at time zone timezone)::date::text d from clients where id = $1', [northwind])).rows[0].d;
    const daily = await s.call('GET', `${API.dailyAttendance}?date=${today}`, { token: tokens.hr });
    expect(daily.status).toBe(200);
    const rows: { status: string }[] = daily.body.rows;
    expect(rows.length).toBeGreaterThan(0); // the demo's teams: the figure counts something real
    const of = (status: string) => rows.filter((r) => r.status === status).length;
    expect(d.attendanceToday).toEqual({
      day: today,
      expected: rows.filter((r) => r.status !== 'day-off').length,
      present: of('present'),
      late: of('late'),
      absent: of('absent'),
      onLeave: of('on-leave'),
      notYet: of('not-yet'),
    });
    expect((await dashboard('operator')).attendanceToday).toBeUndefined();
  });

  it("gives reception today's visitors and identities, and neither controllers nor divisions", async () => {
    const d = await dashboard('reception');
    expect(keys(d)).toEqual(['activeCredentials', 'identities', 'visitorsToday']);
    const today = (await s.db.query<{ d: string }>('select (now() at time zone timezone)::date::text d from clients where id = $1', [northwind])).rows[0].d;
    const expected = await s.count(`select 1 from visitors where client_id = $1 and visit_date = $2::date and status = 'expected'`, [northwind, today]);
    expect(d.visitorsToday).toEqual({
      day: today,
      expected,
      onSite: await s.count(`select 1 from visitors where client_id = $1 and visit_date = $2::date and status = 'on-site'`, [northwind, today]),
      left: await s.count(`select 1 from visitors where client_id = $1 and visit_date = $2::date and status = 'left'`, [northwind, today]),
    });
  });

  it('gives the operator alarms, events, doors and controllers, with 24-hour series that count what happened', async () => {
    const d = await dashboard('operator');
    expect(keys(d)).toEqual([
      'activeCredentials',
      'alarmsByPriority',
      'alarmsPerHour',
      'controllers',
      'doors',
      'doorsByState',
      'eventsPerHour',
      'identities',
      'openAlarms',
      'recentChanges',
    ]);
    expect(d.alarmsPerHour).toHaveLength(24);
    expect(d.eventsPerHour).toHaveLength(24);
    expect(Date.parse(d.eventsPerHour!.at(-1)!.hour)).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - Date.parse(d.eventsPerHour!.at(-1)!.hour)).toBeLessThan(3_600_000);
    const inDay = (table: string, col: string) =>
      s.count(`select 1 from ${table} where client_id = $1 and ${col} >= date_trunc('hour', now()) - interval '23 hours'`, [northwind]);
    expect(d.eventsPerHour!.reduce((n, h) => n + h.count, 0)).toBe(await inDay('events', 'at'));
    expect(d.alarmsPerHour!.reduce((n, h) => n + h.count, 0)).toBe(await inDay('alarms', 'raised_at'));
    expect(d.alarmsPerHour!.at(-1)!.count).toBeGreaterThanOrEqual(1); // the forced door of this test
    expect(d.alarmsByPriority!.find((p) => p.priority === 1)!.count).toBeGreaterThanOrEqual(1);
    expect(d.alarmsByPriority!.reduce((n, p) => n + p.count, 0)).toBe(d.openAlarms);
    expect(d.doorsByState!.reduce((n, p) => n + p.count, 0)).toBe(d.doors);
    expect(d.recentChanges!.map((c) => `${c.action} ${c.entity}`)).toContain('lock door');
  });

  it('gives the auditor every part that has a screen they may open, and no visitors', async () => {
    const d = await dashboard('auditor');
    expect(d.recentChanges).toBeDefined();
    expect(d.eventsPerHour).toHaveLength(24);
    expect(d.visitorsToday).toBeUndefined();
    expect(keys(d)).toEqual([
      'activeCredentials',
      'alarmsByPriority',
      'alarmsPerHour',
      'controllers',
      'divisions',
      'doors',
      'doorsByState',
      'eventsPerHour',
      'identities',
      'openAlarms',
      'recentChanges',
    ]);
  });

  it('counts only the identities and credentials of the divisions the privilege was granted on', async () => {
    const d = await dashboard('hr-warehouse');
    const warehouse = Number(
      (await s.db.query<{ id: number }>(`select id from divisions where client_id = $1 and name = 'Warehouse'`, [northwind])).rows[0].id,
    );
    const all = await s.count('select 1 from identities where client_id = $1', [northwind]);
    const mine = await s.count('select 1 from identities where client_id = $1 and division_id = $2', [northwind, warehouse]);
    expect(mine).toBeLessThan(all);
    expect(d.identities).toBe(mine);
    expect(d.activeCredentials).toBe(
      await s.count(
        `select 1 from credentials c join identities i on i.id = c.identity_id
      where c.client_id = $1 and c.status = 'active' and i.division_id = $2`,
        [northwind, warehouse],
      ),
    );
  });
});
