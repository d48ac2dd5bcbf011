// Scheduled report jobs [0.6.5.x security reports, 3.9.x attendance reports]: each family sees and changes only its
// own jobs (another family's or client's job is 404); a job runs next at its hour in the client's zone; Run now and the
// runner make the period-just-past report as its owner may see it, kept for download, the oldest beyond keepRuns gone;
// an owner without the family's view code gets a failed run that says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportJobsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { runDueJobs } from './reportJobs';

let s: TestServer;
let admin: string, hr: string, auditor: string, harbour: string;
const api = reportJobsResource.api;

beforeAll(async () => {
  s = await startTestServer();
  [admin, hr, auditor, harbour] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('hr'), s.login('auditor'), s.login('harbour')]);
}, 60_000);
afterAll(async () => { await s?.close(); });

const job = (over: Record<string, unknown> = {}) => ({ name: `Job ${Math.random().toString(36).slice(2, 8)}`, report: 'events', frequency: 'daily', hour: 6, weekday: '1', monthDay: 1, keepRuns: 10, enabled: true, ...over });
const q = async (sql: string, p: unknown[] = []) => (await s.db.query<any>(sql, p)).rows;

describe('scheduled report jobs', () => {
  it('keep each family of privileges to its own jobs, and another client out', async () => {
    const security = await s.call('POST', api, { token: admin, body: job() });
    expect(security.status).toBe(201);
    const attendance = await s.call('POST', api, { token: hr, body: job({ report: 'daily-attendance', frequency: 'weekly' }) });
    expect(attendance.status).toBe(201);
    // a NUL in the job's name is named, and no job is made
    const nul = await s.call('POST', api, { token: admin, body: job({ name: 'Night\u0000ly' }) });
    expect([nul.status, nul.body.violations?.map((v: { field: string }) => v.field)]).toEqual([400, ['name']]);
    // HR (3.9.x) may not make a security report, and says so on the field
    const refused = await s.call('POST', api, { token: hr, body: job({ report: 'events' }) });
    expect(refused.status).toBe(403);
    expect(refused.body.violations).toEqual([{ field: 'report', message: 'needs privilege 0.6.5.1' }]);
    // nor turn its own job into one
    expect((await s.call('PUT', `${api}/${attendance.body.id}`, { token: hr, body: { ...job({ report: 'activity' }), name: attendance.body.name } })).status).toBe(403);
    const names = async (token: string) => ((await s.call('GET', `${api}?size=100`, { token })).body.items as { id: number }[]).map((x) => x.id);
    expect(await names(hr)).toContain(attendance.body.id);
    expect(await names(hr)).not.toContain(security.body.id);
    // the auditor reads jobs (0.6.5.0 and 3.9.0, views only) and adds none
    const held: string[] = (await s.call('GET', '/idp/1.0/me', { token: auditor })).body.privileges.priviledges.flatMap((e: any) => e.privilegeIds);
    expect(held.filter((c) => /^(0\.6\.5|3\.9)\./.test(c)).sort()).toEqual(['0.6.5.0', '3.9.0']);
    expect(await names(auditor)).toEqual(expect.arrayContaining([security.body.id, attendance.body.id]));
    expect((await s.call('POST', api, { token: auditor, body: job() })).status).toBe(403);
    expect((await s.call('POST', api, { token: auditor, body: job({ report: 'daily-attendance' }) })).status).toBe(403);
    // another family's job, or another client's, is not there at all
    expect((await s.call('GET', `${api}/${security.body.id}`, { token: hr })).status).toBe(404);
    expect((await s.call('PUT', `${api}/${security.body.id}`, { token: hr, body: job({ report: 'daily-attendance' }) })).status).toBe(404);
    expect((await s.call('GET', `${api}/${security.body.id}/runs`, { token: hr })).status).toBe(404);
    expect((await s.call('GET', `${api}/${security.body.id}`, { token: harbour })).status).toBe(404);
    expect((await s.call('GET', `${api}/${security.body.id}/runs`, { token: harbour })).status).toBe(404);
    expect((await s.call("POST", `${api}/${security.body.id}/run`, { token: hr })).status).toBe(404);
  });

  it('runs next at its hour in the client\u2019s zone, and not at all when off', async () => {
    const made = await s.call('POST', api, { token: admin, body: job({ hour: 7 }) });
    const [{ tz }] = await q(`select timezone as tz from clients where code = 'NORTHWIND'`);
    const local = (await q(`select ($1::timestamptz at time zone $2)::text as t, $1::timestamptz > now() as ahead, $1::timestamptz <= now() + interval '1 day' as within`, [made.body.nextRunAt, tz]))[0];
    expect(local.t).toMatch(/ 07:00:00$/);
    expect(local).toMatchObject({ ahead: true, within: true });
    const weekly = await s.call('POST', api, { token: admin, body: job({ frequency: 'weekly', weekday: '0', hour: 23 }) });
    const w = (await q(`select extract(dow from $1::timestamptz at time zone $2)::int as dow, ($1::timestamptz at time zone $2)::time::text as t`, [weekly.body.nextRunAt, tz]))[0];
    expect(w).toEqual({ dow: 0, t: '23:00:00' });
    const off = await s.call('PUT', `${api}/${made.body.id}`, { token: admin, body: { ...job({ hour: 7, enabled: false }), name: made.body.name } });
    expect(off.body.nextRunAt).toBeNull();
    expect((await s.call('POST', api, { token: admin, body: job({ hour: 24, monthDay: 29 }) })).body.violations.map((v: any) => v.field).sort()).toEqual(['hour', 'monthDay']);
  });

  it('makes yesterday\u2019s events on Run now and on schedule, kept for download, the oldest beyond keepRuns gone', async () => {
    const made = await s.call('POST', api, { token: admin, body: job({ keepRuns: 2 }) });
    const id = made.body.id;
    const [{ nw, tz }] = await q(`select id as nw, timezone as tz from clients where code = 'NORTHWIND'`);
    await q(`insert into events (client_id, event_code, event_source_id, event_point_id, message, at)
      values ($1, 1, 'job', 'job', 'for the report, yesterday', ((now() at time zone $2)::date - 1 + time '10:00') at time zone $2)`, [nw, tz]);
    const expected = Number((await q(`select count(*) as n from events where client_id = $1 and at >= ((now() at time zone $2)::date - 1)::timestamp at time zone $2
      and at < ((now() at time zone $2)::date)::timestamp at time zone $2`, [nw, tz]))[0].n);
    const ran = await s.call('POST', `${api}/${id}/run`, { token: admin });
    expect(ran.status).toBe(200);
    expect(ran.body.lastStatus).toMatch(new RegExp(`^${expected} rows, `));
    const runs = (await s.call('GET', `${api}/${id}/runs`, { token: admin })).body.items;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ ok: true, rows: expected });
    expect(ran.body.lastRunId).toBe(runs[0].id);
    const file = await s.call('GET', `${api}/${id}/runs/${runs[0].id}/file`, { token: admin });
    const lines = String(file.body).trim().split('\r\n');
    expect(lines[0]).toBe('id,time,eventCode,eventSourceName,eventPointName,message,alert,priority');
    expect(lines).toHaveLength(expected + 1);
    expect(String(file.body)).toContain('for the report, yesterday');
    // the auditor reads it too; HR does not
    expect((await s.call('GET', `${api}/${id}/runs/${runs[0].id}/file`, { token: auditor })).status).toBe(200);
    expect((await s.call('GET', `${api}/${id}/runs/${runs[0].id}/file`, { token: hr })).status).toBe(404);
    // a run id past an integer column, or not a number at all, is a report not found (never a 500)
    for (const bad of ['2147483648', '99999999999999999999', '-1', '1e3', '%00']) {
      expect([bad, (await s.call('GET', `${api}/${id}/runs/${bad}/file`, { token: admin })).status]).toEqual([bad, 404]);
    }
    expect(file.body.length).toBeGreaterThan(0);
    // due: the runner makes it and sets the next run ahead; three runs keep two
    await q(`update report_jobs set next_run_at = now() - interval '1 minute' where id = $1`, [id]);
    expect(await runDueJobs(s.db)).toBeGreaterThanOrEqual(1);
    await q(`update report_jobs set next_run_at = now() - interval '1 minute' where id = $1`, [id]);
    await runDueJobs(s.db);
    expect((await s.call('GET', `${api}/${id}/runs`, { token: admin })).body.items).toHaveLength(2);
    expect((await q('select next_run_at > now() as ahead from report_jobs where id = $1', [id]))[0].ahead).toBe(true);
    expect(await runDueJobs(s.db)).toBe(0);
    // two runners at once (two servers on one database) make a due job once
    const before = (await q('select count(*)::int as n from report_job_runs where job_id = $1', [id]))[0].n;
    await q(`update report_jobs set next_run_at = now() - interval '1 minute', keep_runs = 5 where id = $1`, [id]);
    const twice = await Promise.all([runDueJobs(s.db), runDueJobs(s.db)]);
    expect(twice[0] + twice[1]).toBe(1);
    expect((await q('select count(*)::int as n from report_job_runs where job_id = $1', [id]))[0].n).toBe(before + 1);
  });

  it('makes an attendance report for HR, and a failed run when the owner lost the family\u2019s code', async () => {
    const made = await s.call('POST', api, { token: hr, body: job({ report: 'attendance-summary', frequency: 'monthly' }) });
    const ran = await s.call('POST', `${api}/${made.body.id}/run`, { token: hr });
    expect(ran.status).toBe(200);
    const runs = (await s.call('GET', `${api}/${made.body.id}/runs`, { token: hr })).body.items;
    const file = String((await s.call('GET', `${api}/${made.body.id}/runs/${runs[0].id}/file`, { token: hr })).body);
    expect(file.split('\r\n')[0]).toBe('team,employeeNo,name,scheduledDays,presentDays,lateDays,absentDays,leaveDays,workedMinutes,lateMinutes');
    expect(runs[0].from).toMatch(/-01$/); // the month before, from its first day
    // the owner is now the operator, who holds no 3.9.x: the run fails and says why, nothing to download
    const [{ id: operator }] = await q(`select id from users where username = 'operator'`);
    await q('update report_jobs set created_by = $2 where id = $1', [made.body.id, operator]);
    const failed = await s.call('POST', `${api}/${made.body.id}/run`, { token: hr });
    expect(failed.body.lastStatus).toBe('Failed: Its owner no longer holds privilege 3.9.0 in this client: nothing was made');
    const after = (await s.call('GET', `${api}/${made.body.id}/runs`, { token: hr })).body.items;
    expect(after[0]).toMatchObject({ ok: false, bytes: 0 });
    expect((await s.call('GET', `${api}/${made.body.id}/runs/${after[0].id}/file`, { token: hr })).status).toBe(404);
  });
});
