// A tenant's settings act where they say they do: visitor properties [0.7.5.0] on a visitor's registration and a visit
// request's day, attendance properties [3.5.0] on daily attendance (clocking doors, rounding). Each client's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_ATTENDANCE_API, attendancePropertiesResource, visitRequestsResource, visitorPropertiesResource, visitorsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, reception: string, hr: string, harbour: string;

beforeAll(async () => {
  s = await startTestServer();
  [admin, reception, hr, harbour] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('reception'), s.login('hr'), s.login('harbour')]);
}, 60_000);
afterAll(async () => { await s?.close(); });

async function day(offset: number): Promise<string> {
  const { rows } = await s.db.query<{ d: string }>(`select ((now() at time zone timezone)::date + $1::int)::text d from clients where code = 'NORTHWIND'`, [offset]);
  return rows[0].d;
}
const visitor = async (over: Record<string, unknown>, token = reception) => s.call('POST', visitorsResource.api, { token,
  body: { firstName: 'Vera', lastName: 'Props', hostName: 'Ben Brown', purpose: 'meeting', visitDate: await day(0), ...over } });
const fields = (r: { body: { violations?: { field: string; message: string }[] } }) => (r.body.violations ?? []).map((v) => `${v.field} ${v.message}`);

describe('visitor properties', () => {
  it('a registration needs what they say, within the days ahead they allow; another client is not bound by them', async () => {
    expect((await visitor({ visitDate: await day(30) })).status).toBe(201); // the defaults: a year ahead, nothing more needed
    const set = await s.call('PUT', visitorPropertiesResource.api, { token: admin, body: { requirePhoto: false, requireIdNumber: true, requireHostIdentity: true, daysAhead: 2 } });
    expect(set.status).toBe(200);
    const refused = await visitor({ visitDate: await day(3) });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toEqual(['idNumber is required', 'hostId is required: pick the host from the identities', 'visitDate must be within 2 days of today']);
    const host = (await s.db.query<{ id: number }>(`select i.id from identities i join clients c on c.id = i.client_id where c.code = 'NORTHWIND' order by i.id limit 1`)).rows[0].id;
    expect((await visitor({ visitDate: await day(2), idNumber: 'X1234567', hostId: host })).status).toBe(201);
    // a visit request's day too
    const request = await s.call('POST', visitRequestsResource.api, { token: reception, body: { firstName: 'R', lastName: 'Q', hostName: 'H', purpose: 'meeting', visitDate: await day(3) } });
    expect(fields(request)).toEqual(['visitDate must be within 2 days of today']);
    // Harbour keeps its defaults
    const theirs = await s.call('POST', visitorsResource.api, { token: harbour, body: { firstName: 'H', lastName: 'B', hostName: 'H', purpose: 'meeting', visitDate: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10) } });
    expect(theirs.status).toBe(201);
    // a receptionist (1.x) may not change them
    expect((await s.call('PUT', visitorPropertiesResource.api, { token: reception, body: { requirePhoto: false, requireIdNumber: false, requireHostIdentity: false, daysAhead: 366 } })).status).toBe(403);
  });
});

describe('attendance properties', () => {
  it('choose the doors whose badge-ins count and round worked time down', async () => {
    const q = async (sql: string, p: unknown[] = []) => (await s.db.query<any>(sql, p)).rows;
    const [{ id: client }] = await q(`select id from clients where code = 'NORTHWIND'`);
    const [{ id: identity }] = await q(`select i.id from team_members m join teams t on t.id = m.team_id join identities i on i.id = m.identity_id where t.client_id = $1 and t.name = 'Head office' order by i.id limit 1`, [client]);
    const doors = await q('select id from doors where client_id = $1 order by id limit 2', [client]);
    const date = '2026-06-01'; // a Monday, before any seeded badge-in
    const swipe = (door: number, at: string) => q(`insert into events (client_id, event_code, event_source_id, event_point_id, message, identity_id, decision, swipe, at)
      values ($1, 5000, $2, $2, 'test', $3, 'granted', jsonb_build_object('doorId', $4::int, 'side', 'entry'), $5)`, [client, String(door), identity, door, at]);
    await swipe(doors[0].id, `${date}T08:55:00+08:00`);
    await swipe(doors[1].id, `${date}T12:00:00+08:00`); // the canteen door, say
    await swipe(doors[0].id, `${date}T17:12:00+08:00`);
    const mine = async () => ((await s.call('GET', `${DAILY_ATTENDANCE_API}?date=${date}`, { token: hr })).body.rows as any[]).find((r) => r.identityId === identity);
    expect(await mine()).toMatchObject({ status: 'present', workedMinutes: 497 });
    expect((await s.call('PUT', attendancePropertiesResource.api, { token: hr, body: { clockDoors: [doors[1].id], roundMinutes: 15 } })).status).toBe(200);
    // only the second door counts now: one badge-in at noon, late, nothing worked
    expect(await mine()).toMatchObject({ status: 'late', lateMinutes: 180, workedMinutes: null });
    expect((await s.call('PUT', attendancePropertiesResource.api, { token: hr, body: { clockDoors: [], roundMinutes: 15 } })).status).toBe(200);
    expect(await mine()).toMatchObject({ status: 'present', workedMinutes: 495 }); // 497 rounded down to 15s
    expect((await s.call('PUT', attendancePropertiesResource.api, { token: hr, body: { clockDoors: [], roundMinutes: 0 } })).status).toBe(400);
  });
});
