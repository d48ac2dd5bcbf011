// Alarm handling, measured (issue 31) on a small known set: five alarms raised by the simulator on 29 February 2024 in
// Northwind's zone (Asia/Kuala_Lumpur, +08:00), acknowledged and processed through the real routes. The simulator and
// the routes stamp the database's now(); the test then moves each stamp (raised, taken on, processed) to a known
// instant of that day, as a clock would have put them, so every
// figure — medians and p90 interpolated by percentile_cont — is checked exactly. Targets come from the alarm settings
// (defaults, then a changed P1 target); division scope, another tenant, bad params and privileges are checked too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, alarmSettingsResource } from '../../contract';
import { ALARM_HANDLING_API, alarmFigureQuery, type AlarmHandlingReport } from '../../contract/alarmHandling';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let nw: string, operator: string, harbour: string, auditor: string, reception: string;
let northwind: number;
const PASSWORD = 'Strong-pass1';
const DAY = '2024-02-29';
const at = (hhmm: string) => new Date(`${DAY}T${hhmm}:00+08:00`);
const plus = (d: Date, s: number) => new Date(d.getTime() + s * 1000).toISOString();
const ids: Record<string, number> = {};

beforeAll(async () => {
  s = await startTestServer({ testHooks: true });
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  nw = await s.loginTo('admin', 'NORTHWIND');
  [operator, harbour, auditor, reception] = await Promise.all(['operator', 'harbour', 'auditor', 'reception'].map((u) => s.login(u)));
  const doors = (
    await s.db.query<{ id: number }>('select id from doors where client_id = $1 and division_id is not null order by id limit 5', [northwind])
  ).rows.map((d) => Number(d.id));
  expect(doors).toHaveLength(5);
  const raise = async (name: string, kind: string, door: number) => {
    const r = await s.call('POST', API.testSimulate, { token: nw, body: { kind, doorId: door } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    ids[name] = Number(r.body.id);
  };
  await raise('a1', 'door.forced', doors[0]);
  await raise('a2', 'door.forced', doors[1]);
  await raise('a3', 'door.forced', doors[2]);
  await raise('a4', 'door.forced', doors[3]);
  await raise('a5', 'door.held', doors[4]);
  const ack = async (name: string, token: string) => expect((await s.call('POST', `${API.alarms}/${ids[name]}/acknowledge`, { token })).status).toBe(200);
  const proc = async (name: string, token: string) =>
    expect((await s.call('POST', `${API.alarms}/${ids[name]}/process`, { token, body: { note: 'Checked on site' } })).status).toBe(200);
  await ack('a1', nw);
  await proc('a1', nw);
  await ack('a2', nw);
  await proc('a2', nw);
  await ack('a3', operator);
  await proc('a4', operator); // processed straight away: that also takes it on
  // the clock: when each was taken on and processed, seconds after it was raised
  const stamp = async (name: string, raised: Date, ackS: number | null, procS: number | null) => {
    await s.db.query('update events set at = $2 where id = $1', [ids[name], raised.toISOString()]);
    await s.db.query('update alarms set raised_at = $2, acknowledged_at = $3, processed_at = $4 where event_id = $1', [
      ids[name],
      raised.toISOString(),
      ackS === null ? null : plus(raised, ackS),
      procS === null ? null : plus(raised, procS),
    ]);
  };
  await stamp('a1', at('09:10'), 30, 600);
  await stamp('a2', at('09:40'), 120, 1200);
  await stamp('a3', at('14:05'), 90, null);
  await stamp('a4', at('14:20'), null, 300);
  await stamp('a5', at('23:30'), null, null);
  // an alarm closed without a word (as an imported one would be)
  await s.db.query(`update alarms set note = '  ' where event_id = $1`, [ids.a4]);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const report = (token: string, q = `from=${DAY}&to=${DAY}`) => s.call('GET', `${ALARM_HANDLING_API}?${q}`, { token });

describe('the alarm handling report', () => {
  it('counts a known set exactly: in total, per priority, type, operator and hour', async () => {
    const r = await report(nw);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const b = r.body as AlarmHandlingReport;
    expect(b).toMatchObject({ from: DAY, to: DAY, zone: 'Asia/Kuala_Lumpur', start: '2024-02-28T16:00:00.000Z', end: '2024-02-29T16:00:00.000Z' });
    expect(b.targets[0]).toEqual({ priority: 1, ackMinutes: 1, processMinutes: 15 });
    // taken on after 30, 120, 90 and 300 s (a4 processed at once); processed after 600, 1200 and 300 s
    expect(b.total).toEqual({
      raised: 5,
      acknowledge: { median: 105, p90: 246, worst: 300, count: 4 },
      process: { median: 600, p90: 1080, worst: 1200, count: 3 },
      openAtEnd: 2,
      withoutNote: 1,
      lateAcknowledge: 4, // a2, a3 and a4 past P1's minute, a5 (P3) never taken on
      lateProcess: 3, // a2 after 20 minutes, a3 and a5 still open long past their targets
    });
    const p1 = b.priority.find((x) => x.key === '1')!;
    expect(p1.label).toBe('P1');
    expect(p1.figures).toMatchObject({ raised: 4, openAtEnd: 1, lateAcknowledge: 3, lateProcess: 2 });
    expect(b.priority.map((x) => [x.key, x.figures.raised])).toEqual([
      ['1', 4],
      ['3', 1],
    ]);
    expect(b.type.map((x) => [x.key, x.label, x.figures.raised])).toEqual([
      ['6001', 'Door forced open', 4],
      ['6002', 'Door held open', 1],
    ]);
    const byOperator = Object.fromEntries(b.operator.map((x) => [x.key, x]));
    expect(Object.keys(byOperator).sort()).toEqual(['', 'admin', 'operator']);
    expect(byOperator.admin.figures).toMatchObject({
      raised: 2,
      acknowledge: { median: 75, p90: 111, worst: 120, count: 2 },
      process: { median: 900, p90: 1140, worst: 1200, count: 2 },
    });
    expect(byOperator.operator.figures).toMatchObject({ raised: 2, withoutNote: 1, openAtEnd: 1 });
    expect(byOperator[''].figures).toMatchObject({ raised: 1, acknowledge: { median: null, p90: null, worst: null, count: 0 } });
    expect(b.hour.map((x) => [x.label, x.figures.raised])).toEqual([
      ['09:00', 2],
      ['14:00', 2],
      ['23:00', 1],
    ]);
  });

  it('counts against the targets kept in the alarm settings (validated, audited)', async () => {
    const bad = await s.call('PUT', alarmSettingsResource.api, { token: nw, body: { ackP1Minutes: 0, processP1Minutes: 20000 } });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: any) => v.field).sort()).toEqual(['ackP1Minutes', 'processP1Minutes']);
    expect((await s.call('PUT', alarmSettingsResource.api, { token: reception, body: { ackP1Minutes: 2 } })).status).toBe(403);
    const audits = await s.count(`select 1 from audit_log where entity ilike '%alarm%settings%'`);
    const ok = await s.call('PUT', alarmSettingsResource.api, { token: nw, body: { ackP1Minutes: 2 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await s.count(`select 1 from audit_log where entity ilike '%alarm%settings%'`)).toBe(audits + 1);
    const b = (await report(nw)).body as AlarmHandlingReport;
    expect(b.targets[0]).toEqual({ priority: 1, ackMinutes: 2, processMinutes: 15 });
    expect(b.total.lateAcknowledge).toBe(2); // a4 (300 s) and a5; a2 (120 s) is not later than 2 minutes
    await s.call('PUT', alarmSettingsResource.api, { token: nw, body: { ackP1Minutes: 1 } });
  });

  it('opens the alarms behind a figure in the event report', async () => {
    const b = (await report(nw)).body as AlarmHandlingReport;
    const behind = async (q: Record<string, string>) => {
      const r = await s.call('GET', `${API.events}?${new URLSearchParams({ ...q, size: '50' })}`, { token: nw });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.items.map((e: any) => Number(e.id)).sort((x: number, y: number) => x - y);
    };
    expect(await behind(alarmFigureQuery(b, 'total', '', 'raised'))).toEqual([ids.a1, ids.a2, ids.a3, ids.a4, ids.a5]);
    expect(await behind(alarmFigureQuery(b, 'total', '', 'lateProcess'))).toEqual([ids.a2, ids.a3, ids.a5]);
    expect(await behind(alarmFigureQuery(b, 'priority', '1', 'open'))).toEqual([ids.a3]);
    expect(await behind(alarmFigureQuery(b, 'operator', 'operator', 'withoutNote'))).toEqual([ids.a4]);
    expect(await behind(alarmFigureQuery(b, 'operator', '', 'raised'))).toEqual([ids.a5]);
    expect(await behind(alarmFigureQuery(b, 'hour', '9', 'lateAcknowledge'))).toEqual([ids.a2]);
    expect(await behind(alarmFigureQuery(b, 'type', '6002', 'raised'))).toEqual([ids.a5]);
    const bad = await s.call('GET', `${API.events}?alarmFigure=late&alarmHour=24&alarmPriority=x`, { token: nw });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: any) => v.field).sort()).toEqual(['alarmFigure', 'alarmHour', 'alarmPriority']);
  });

  it('is division-scoped like the alarms: an operator of another division sees none of them', async () => {
    const division = await s.call('POST', API.divisions, { token: nw, body: { name: 'Annex without doors' } });
    expect(division.status, JSON.stringify(division.body)).toBe(201);
    const role = await s.call('POST', API.roles, { token: nw, body: { name: 'Annex reports', code: 'annex-reports' } });
    await s.call('POST', `${API.roles}/${role.body.id}/assign-privileges`, {
      token: nw,
      body: { privileges: ['0.1', '0.6.7.0'].map((code) => ({ code, divisionId: null })) },
    });
    const op = await s.call('POST', API.operators, { token: nw, body: { username: 'annexwatch', name: 'Annex Watch', password: PASSWORD } });
    expect(op.status).toBe(201);
    expect(
      (
        await s.call('POST', API.operatorGroups, {
          token: nw,
          body: { name: 'Annex watchers', members: [op.body.id], grants: [{ roleId: role.body.id, divisionId: division.body.id }] },
        })
      ).status,
    ).toBe(201);
    const annex = await s.login('annexwatch', PASSWORD);
    const r = await report(annex);
    expect(r.status).toBe(200);
    expect(r.body.total.raised).toBe(0);
    expect(r.body.priority).toEqual([]);
    // the auditor (the event report's holder for the whole client) sees them all
    expect((await report(auditor)).body.total.raised).toBe(5);
  });

  it("keeps another tenant's alarms out", async () => {
    const r = await report(harbour);
    expect(r.status).toBe(200);
    expect(r.body.zone).toBe('Europe/London');
    expect(r.body.total.raised).toBe(0);
    expect(r.body.operator).toEqual([]);
  });

  it('answers 400 naming the field for a bad period or format, 403 without the code, 401 signed out', async () => {
    const fields = async (q: string) => {
      const r = await report(nw, q);
      expect(r.status).toBe(400);
      return r.body.violations.map((v: any) => v.field);
    };
    expect(await fields('to=2024-02-29')).toContain('from');
    expect(await fields('from=2024-02-30&to=2024-03-01')).toEqual(['from']);
    expect(await fields('from=2024-03-01&to=2024-02-29')).toEqual(['to']);
    expect(await fields('from=2024-01-01&to=2025-01-01')).toEqual(['to']); // 367 days
    expect((await report(nw, 'from=2024-01-01&to=2024-12-31')).status).toBe(200); // 366 days
    expect(await fields(`from=${DAY}&to=${DAY}&format=pdf`)).toEqual(['format']);
    expect((await report(reception)).status).toBe(403);
    expect((await s.call('GET', `${ALARM_HANDLING_API}?from=${DAY}&to=${DAY}`)).status).toBe(401);
    expect((await report(operator)).status).toBe(200); // the security operator holds the event reports, and this one
  });

  it('exports the same figures as CSV and XLSX', async () => {
    const csv = await fetch(`${s.base}${ALARM_HANDLING_API}?from=${DAY}&to=${DAY}&format=csv`, { headers: { authorization: `Bearer ${nw}` } });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^Grouping,Key,Group,Raised,Acknowledge median \(s\)/);
    expect(lines[1]).toBe('total,,All alarms,5,105,246,300,600,1080,1200,2,1,4,3,');
    expect(lines).toContain('hour,23,23:00,1,,,,,,,1,0,1,1,');
    // issue 50: the ISA-18.2 figures of the JSON report, a line each, and its top sources with their alarms
    const json = (await s.call('GET', `${ALARM_HANDLING_API}?from=${DAY}&to=${DAY}`, { token: nw })).body as AlarmHandlingReport;
    const m = json.management!;
    expect(lines).toContain(`alarm management,per-operator-hour,Alarms per operator-hour,,,,,,,,,,,,${m.perOperatorHour}`);
    expect(lines).toContain(`alarm management,stale,Stale alarms,,,,,,,,,,,,${m.stale}`);
    expect(m.topSources.length).toBeGreaterThan(0);
    for (const t of m.topSources) expect(lines.some((l) => l.startsWith(`top source,${t.pointId},`) && l.split(',')[3] === String(t.count))).toBe(true);
    const xlsx = await fetch(`${s.base}${ALARM_HANDLING_API}?from=${DAY}&to=${DAY}&format=xlsx`, { headers: { authorization: `Bearer ${nw}` } });
    expect(xlsx.status).toBe(200);
    const bytes = Buffer.from(await xlsx.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as any);
    const sheet = wb.worksheets[0];
    expect(sheet.getRow(2).values).toEqual(
      [undefined, 'total', null, 'All alarms', 5, 105, 246, 300, 600, 1080, 1200, 2, 1, 4, 3].map((v) => (v === null ? undefined : v)),
    );
  });
});
