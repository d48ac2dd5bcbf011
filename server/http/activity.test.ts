// Issue 50: the activity report in plain words. Its rows name the operator (not the username) and what was changed
// (not "door 2"), against the real server and database; the scheduled activity report's file has the same headers as
// the screen's export (contract/activity.ts) and keeps the username, the id and the values before and after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_FILE_COLUMNS, API, activityCells, auditActionWords, reportJobsResource, type AuditEntry } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string;
let northwind: number;

beforeAll(async () => {
  s = await startTestServer();
  admin = await s.loginTo('admin', 'NORTHWIND');
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const newest = async (): Promise<AuditEntry> => (await s.call('GET', `${API.audit}?size=1&sort=at,desc`, { token: admin })).body.items[0];

describe('the activity report (issue 50)', () => {
  it('names the operator and what was changed, in plain words', async () => {
    const made = await s.call('POST', API.divisions, { token: admin, body: { name: 'Night shift wing' } });
    expect(made.status).toBe(201);
    const added = await newest();
    expect(added).toMatchObject({ actor: 'admin', actorName: 'Alex Admin', action: 'create', entityName: 'Night shift wing' });
    expect(auditActionWords(added.action)).toBe('Added');

    // a door command names its door (it used to keep only the event's id: "door 2")
    const door = (await s.db.query<{ id: number; name: string }>(`select id, name from doors where client_id = $1 order by id limit 1`, [northwind])).rows[0];
    const opened = await s.call('POST', `${API.doors}/${door.id}/commands`, { token: admin, body: { command: 'momentary-unlock' } });
    expect(opened.status).toBe(200);
    const command = await newest();
    expect(command).toMatchObject({ action: 'momentary-unlock', entity: 'door', entityName: door.name, entityId: String(door.id) });
    expect(auditActionWords(command.action)).toBe('Opened briefly');
  });

  it('a scheduled activity report has the headers of the screen’s export, with usernames, ids and the values before and after', async () => {
    // a change of yesterday (the daily report's period), written as the server writes every audit row
    await s.db.query(
      `insert into audit_log (client_id, actor, action, entity, entity_id, before, after, at)
       select $1, 'admin', 'update', 'division', '77', '{"name":"West wing"}', '{"name":"East wing"}',
         ((now() at time zone c.timezone)::date - 1 + time '09:30') at time zone c.timezone from clients c where c.id = $1`,
      [northwind],
    );
    const job = await s.call('POST', reportJobsResource.api, {
      token: admin,
      body: {
        name: 'Changes yesterday',
        report: 'activity',
        format: 'csv',
        frequency: 'daily',
        hour: 6,
        weekday: '1',
        monthDay: 1,
        keepRuns: 2,
        enabled: true,
      },
    });
    expect(job.status).toBe(201);
    const ran = await s.call('POST', `${reportJobsResource.api}/${job.body.id}/run`, { token: admin });
    expect(ran.status).toBe(200);
    const [run] = (await s.call('GET', `${reportJobsResource.api}/${job.body.id}/runs`, { token: admin })).body.items;
    const res = await fetch(`${s.base}${reportJobsResource.api}/${job.body.id}/runs/${run.id}/file`, { headers: { authorization: `Bearer ${admin}` } });
    const lines = (await res.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const [zone] = (await s.db.query<{ tz: string }>('select timezone as tz from clients where id = $1', [northwind])).rows.map((r) => r.tz);
    expect(lines[0]).toBe([`When (${zone})`, ...ACTIVITY_FILE_COLUMNS.slice(1)].join(','));
    const row = lines.find((l) => l.includes('East wing'))!;
    // the same cells the console writes for its export, after the time
    const cells = activityCells({
      id: 0,
      clientId: northwind,
      actor: 'admin',
      actorName: 'Alex Admin',
      action: 'update',
      entity: 'division',
      entityId: '77',
      before: { name: 'West wing' },
      after: { name: 'East wing' },
      at: '',
    });
    expect(cells.slice(0, 7)).toEqual(['Alex Admin', 'admin', 'Changed', 'Division', 'East wing', '77', 'name']);
    expect(row.slice(row.indexOf(',') + 1)).toBe(cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(','));
  });
});
