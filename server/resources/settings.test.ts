// A tenant's settings act where they say they do: visitor properties [0.7.5.0] on a visitor's registration and a visit
// request's day, attendance properties [3.5.0] on daily attendance (clocking doors, rounding), company ID [0.7.4.0] on
// badges and the credential store, floor plan properties [0.7.3.1] for the monitor, central properties [0.7.3.0] on
// how long records are kept. Each client's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAILY_ATTENDANCE_API,
  attendancePropertiesResource,
  centralPropertiesResource,
  companyIdResource,
  credentialStoreResource,
  floorPlanPropertiesResource,
  floorPlansResource,
  visitRequestsResource,
  visitorPropertiesResource,
  visitorsResource,
} from '../../contract';
import { pruneByRetention } from './settings';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, reception: string, hr: string, harbour: string;

beforeAll(async () => {
  s = await startTestServer();
  [admin, reception, hr, harbour] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('reception'), s.login('hr'), s.login('harbour')]);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

async function day(offset: number): Promise<string> {
  const { rows } = await s.db.query<{ d: string }>(`select ((now() at time zone timezone)::date + $1::int)::text d from clients where code = 'NORTHWIND'`, [
    offset,
  ]);
  return rows[0].d;
}
const visitor = async (over: Record<string, unknown>, token = reception) =>
  s.call('POST', visitorsResource.api, {
    token,
    body: { firstName: 'Vera', lastName: 'Props', hostName: 'Ben Brown', purpose: 'meeting', visitDate: await day(0), ...over },
  });
const fields = (r: { body: { violations?: { field: string; message: string }[] } }) => (r.body.violations ?? []).map((v) => `${v.field} ${v.message}`);

describe('visitor properties', () => {
  it('a registration needs what they say, within the days ahead they allow; another client is not bound by them', async () => {
    expect((await visitor({ visitDate: await day(30) })).status).toBe(201); // the defaults: a year ahead, nothing more needed
    const set = await s.call('PUT', visitorPropertiesResource.api, {
      token: admin,
      body: { requirePhoto: false, requireIdNumber: true, requireHostIdentity: true, daysAhead: 2 },
    });
    expect(set.status).toBe(200);
    const refused = await visitor({ visitDate: await day(3) });
    expect(refused.status).toBe(400);
    expect(fields(refused)).toEqual([
      'idNumber is required',
      'hostId is required: pick the host from the identities',
      'visitDate must be within 2 days of today',
    ]);
    const host = (
      await s.db.query<{ id: number }>(`select i.id from identities i join clients c on c.id = i.client_id where c.code = 'NORTHWIND' order by i.id limit 1`)
    ).rows[0].id;
    expect((await visitor({ visitDate: await day(2), idNumber: 'X1234567', hostId: host })).status).toBe(201);
    // a visit request's day too
    const request = await s.call('POST', visitRequestsResource.api, {
      token: reception,
      body: { firstName: 'R', lastName: 'Q', hostName: 'H', purpose: 'meeting', visitDate: await day(3) },
    });
    expect(fields(request)).toEqual(['visitDate must be within 2 days of today']);
    // Harbour keeps its defaults
    const theirs = await s.call('POST', visitorsResource.api, {
      token: harbour,
      body: { firstName: 'H', lastName: 'B', hostName: 'H', purpose: 'meeting', visitDate: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10) },
    });
    expect(theirs.status).toBe(201);
    // a receptionist (1.x) may not change them
    expect(
      (
        await s.call('PUT', visitorPropertiesResource.api, {
          token: reception,
          body: { requirePhoto: false, requireIdNumber: false, requireHostIdentity: false, daysAhead: 366 },
        })
      ).status,
    ).toBe(403);
  });
});

describe('attendance properties', () => {
  it('choose the doors whose badge-ins count and round worked time down', async () => {
    const q = async (sql: string, p: unknown[] = []) => (await s.db.query<any>(sql, p)).rows;
    const [{ id: client }] = await q(`select id from clients where code = 'NORTHWIND'`);
    const [{ id: identity }] = await q(
      `select i.id from team_members m join teams t on t.id = m.team_id join identities i on i.id = m.identity_id where t.client_id = $1 and t.name = 'Head office' order by i.id limit 1`,
      [client],
    );
    const doors = await q('select id from doors where client_id = $1 order by id limit 2', [client]);
    const date = '2026-06-01'; // a Monday, before any seeded badge-in
    const swipe = (door: number, at: string) =>
      q(
        `insert into events (client_id, event_code, event_source_id, event_point_id, message, identity_id, decision, swipe, at)
      values ($1, 5000, $2, $2, 'test', $3, 'granted', jsonb_build_object('doorId', $4::int, 'side', 'entry'), $5)`,
        [client, String(door), identity, door, at],
      );
    await swipe(doors[0].id, `${date}T08:55:00+08:00`);
    await swipe(doors[1].id, `${date}T12:00:00+08:00`); // the canteen door, say
    await swipe(doors[0].id, `${date}T17:12:00+08:00`);
    const mine = async () =>
      ((await s.call('GET', `${DAILY_ATTENDANCE_API}?date=${date}`, { token: hr })).body.rows as any[]).find((r) => r.identityId === identity);
    expect(await mine()).toMatchObject({ status: 'present', workedMinutes: 437 }); // 8:17 less Office hours' 60-minute unpaid break
    expect((await s.call('PUT', attendancePropertiesResource.api, { token: hr, body: { clockDoors: [doors[1].id], roundMinutes: 15 } })).status).toBe(200);
    // only the second door counts now: one badge-in at noon, late, nothing worked
    expect(await mine()).toMatchObject({ status: 'late', lateMinutes: 180, workedMinutes: null });
    expect((await s.call('PUT', attendancePropertiesResource.api, { token: hr, body: { clockDoors: [], roundMinutes: 15 } })).status).toBe(200);
    expect(await mine()).toMatchObject({ status: 'present', workedMinutes: 435 }); // 437 rounded down to 15s
    expect((await s.call('PUT', attendancePropertiesResource.api, { token: hr, body: { clockDoors: [], roundMinutes: 0 } })).status).toBe(400);
  });
});

// the Server section's settings (contract/resources/settings.ts)
describe('company ID', () => {
  it('is printed for visitors and gives new store cards its site code; bounded; one client\u2019s own', async () => {
    // (the visitor properties of the test above back to their defaults)
    expect(
      (
        await s.call('PUT', visitorPropertiesResource.api, {
          token: admin,
          body: { requirePhoto: false, requireIdNumber: false, requireHostIdentity: false, daysAhead: 366 },
        })
      ).status,
    ).toBe(200);
    const refused = await s.call('PUT', companyIdResource.api, { token: admin, body: { companyName: 'x'.repeat(101), siteCode: 70_000 } });
    expect(refused.status).toBe(400);
    expect(
      fields(refused)
        .map((f) => f.split(' ')[0])
        .sort(),
    ).toEqual(['companyName', 'siteCode']);
    // a NUL or a lone surrogate in the name: named, nothing stored (PostgreSQL text cannot hold a NUL)
    for (const companyName of ['North\u0000wind', 'North\ud800wind']) {
      const bad = await s.call('PUT', companyIdResource.api, { token: admin, body: { companyName, siteCode: 1 } });
      expect([bad.status, fields(bad).map((f) => f.split(' ')[0])]).toEqual([400, ['companyName']]);
    }
    expect((await s.call('PUT', companyIdResource.api, { token: admin, body: { companyName: 'Northwind Site A', siteCode: 1234 } })).status).toBe(200);
    // the front desk reads it (its badges print it), but may not change it
    expect((await s.call('GET', companyIdResource.api, { token: reception })).body).toMatchObject({ companyName: 'Northwind Site A', siteCode: 1234 });
    expect((await s.call('PUT', companyIdResource.api, { token: reception, body: { companyName: 'Mine', siteCode: 1 } })).status).toBe(403);
    const v = await visitor({});
    expect(v.status).toBe(201);
    expect(v.body).toMatchObject({ issuer: 'Northwind Site A', siteCode: 1234 });
    const bare = await s.call('POST', credentialStoreResource.api, { token: admin, body: { number: 'SITE-1', type: 'card' } });
    expect(bare.body).toMatchObject({ facilityCode: 1234 });
    const own = await s.call('POST', credentialStoreResource.api, { token: admin, body: { number: 'SITE-2', type: 'card', facilityCode: 7 } });
    expect(own.body).toMatchObject({ facilityCode: 7 });
    // Harbour has set nothing: its visitors print its own name, no site code
    const theirs = await s.call('POST', visitorsResource.api, {
      token: harbour,
      body: { firstName: 'H', lastName: 'C', hostName: 'H', purpose: 'meeting', visitDate: new Date().toISOString().slice(0, 10) },
    });
    const harbourName = (await s.db.query<{ name: string }>(`select name from clients where code = 'HARBOUR'`)).rows[0].name;
    expect(theirs.body).toMatchObject({ issuer: harbourName, siteCode: null });
    // an empty name prints the client's own
    expect((await s.call('PUT', companyIdResource.api, { token: admin, body: { companyName: '', siteCode: null } })).status).toBe(200);
    const ourName = (await s.db.query<{ name: string }>(`select name from clients where code = 'NORTHWIND'`)).rows[0].name;
    expect((await s.call('GET', `${visitorsResource.api}/${v.body.id}`, { token: reception })).body).toMatchObject({ issuer: ourName, siteCode: null });
  });
});

describe('floor plan properties', () => {
  it('are read by the monitor\u2019s holders, changed by 0.7.3.1 only, and forget a deleted plan', async () => {
    const plan = await s.call('POST', floorPlansResource.api, { token: admin, body: { name: 'Props floor', doors: [] } });
    expect(plan.status).toBe(201);
    const set = await s.call('PUT', floorPlanPropertiesResource.api, {
      token: admin,
      body: { defaultPlanId: plan.body.id, showDoorNames: false, pinSize: 'large' },
    });
    expect(set.status).toBe(200);
    const operator = await s.login('operator');
    expect((await s.call('GET', floorPlanPropertiesResource.api, { token: operator })).body).toMatchObject({
      defaultPlanId: plan.body.id,
      showDoorNames: false,
      pinSize: 'large',
    });
    expect(
      (await s.call('PUT', floorPlanPropertiesResource.api, { token: operator, body: { defaultPlanId: null, showDoorNames: true, pinSize: 'small' } })).status,
    ).toBe(403);
    expect(
      (await s.call('PUT', floorPlanPropertiesResource.api, { token: admin, body: { defaultPlanId: null, showDoorNames: true, pinSize: 'huge' } })).status,
    ).toBe(400);
    // another client's plan is no plan of ours
    const harbourPlan = await s.call('POST', floorPlansResource.api, { token: harbour, body: { name: 'Quay', doors: [] } });
    const foreign = await s.call('PUT', floorPlanPropertiesResource.api, {
      token: admin,
      body: { defaultPlanId: harbourPlan.body.id, showDoorNames: true, pinSize: 'small' },
    });
    expect(foreign.status).toBe(400);
    expect(fields(foreign)[0]).toMatch(/^defaultPlanId /);
    // deleting the plan it opens with is not refused: the properties name none after it
    expect((await s.call('DELETE', `${floorPlansResource.api}/${plan.body.id}`, { token: admin })).body).toEqual({ deleted: 1 });
    expect((await s.call('GET', floorPlanPropertiesResource.api, { token: admin })).body).toMatchObject({
      defaultPlanId: null,
      showDoorNames: false,
      pinSize: 'large',
    });
  });
});

describe('central properties', () => {
  it('delete each client\u2019s events and visitors once past the days it keeps them, and nothing else', async () => {
    const q = async (sql: string, p: unknown[] = []) => (await s.db.query<any>(sql, p)).rows;
    const [{ id: nw }] = await q(`select id from clients where code = 'NORTHWIND'`);
    const [{ id: hb }] = await q(`select id from clients where code = 'HARBOUR'`);
    const event = async (client: number, daysAgo: number) =>
      (
        await q(
          `insert into events (client_id, event_code, event_source_id, event_point_id, message, at)
      values ($1, 1, 'retention', 'retention', 'retention test', now() - $2::int * interval '1 day') returning id`,
          [client, daysAgo],
        )
      )[0].id as number | string;
    const old = Number(await event(nw, 40)),
      recent = Number(await event(nw, 5)),
      alarmed = Number(await event(nw, 40)),
      theirs = Number(await event(hb, 400)); // (bigint ids: text on PostgreSQL)
    await q(`insert into alarms (event_id, client_id, event_code, event_point_id, priority, raised_at) values ($1, $2, 1, 'retention', 1, now())`, [
      alarmed,
      nw,
    ]);
    const visit = async (client: number, daysAgo: number, status: string) =>
      (
        await q(
          `insert into visitors (client_id, first_name, last_name, host_name, purpose, visit_date, valid_until, status)
      values ($1, 'Old', 'Visit', 'H', 'meeting', current_date - $2::int, now(), $3) returning id`,
          [client, daysAgo, status],
        )
      )[0].id as number;
    const gone = await visit(nw, 40, 'left'),
      onSite = await visit(nw, 40, 'on-site'),
      lately = await visit(nw, 3, 'left'),
      harbourOld = await visit(hb, 400, 'left');
    await q(
      `insert into visit_requests (client_id, first_name, last_name, host_name, visit_date, status, visitor_id) values ($1, 'Old', 'Req', 'H', current_date - 40, 'approved', $2)`,
      [nw, gone],
    );

    expect((await s.call('PUT', centralPropertiesResource.api, { token: admin, body: { eventRetentionDays: -1, visitorRetentionDays: 3651 } })).status).toBe(
      400,
    );
    expect((await s.call('PUT', centralPropertiesResource.api, { token: reception, body: { eventRetentionDays: 30, visitorRetentionDays: 30 } })).status).toBe(
      403,
    );
    // nothing is kept for a limited time yet: a pass deletes none of ours
    expect((await pruneByRetention(s.db)).filter((p) => p.clientId === nw)).toEqual([]);
    expect((await s.call('PUT', centralPropertiesResource.api, { token: admin, body: { eventRetentionDays: 30, visitorRetentionDays: 30 } })).status).toBe(200);
    const pass = (await pruneByRetention(s.db)).find((p) => p.clientId === nw);
    expect(pass).toMatchObject({ visitors: 1, visitRequests: 1 });
    expect(pass!.events).toBeGreaterThanOrEqual(1);
    const ids = async (table: string, list: number[]) =>
      (await q(`select id from ${table} where id = any($1::${table === 'events' ? 'bigint' : 'int'}[]) order by id`, [list])).map((r) => Number(r.id));
    expect(await ids('events', [old, recent, alarmed, theirs])).toEqual([recent, alarmed, theirs]);
    expect(await ids('visitors', [gone, onSite, lately, harbourOld])).toEqual([onSite, lately, harbourOld]);
    // a second pass has nothing left to delete
    expect((await pruneByRetention(s.db)).find((p) => p.clientId === nw)).toBeUndefined();
  });
});
