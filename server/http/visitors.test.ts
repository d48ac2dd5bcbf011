import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testkit';
import { clientToday, todayInZone } from '../../contract';

let s: TestServer;
let reception: string; // Northwind receptionist: registers visitors
let harbour: string; // Harbour administrator
let hr: string; // Northwind HR: no visitor privileges
let today: string;

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const valid = (over: Record<string, unknown> = {}) => ({
  firstName: 'Nurul Aini',
  lastName: 'binti Ismail',
  idNumber: '900101-14-5678',
  company: 'Acme Couriers',
  hostName: 'Sam Operator',
  purpose: 'delivery',
  visitDate: today,
  photo: PNG,
  ...over,
});

beforeAll(async () => {
  s = await startTestServer();
  reception = await s.login('reception');
  harbour = await s.login('harbour');
  hr = await s.login('hr');
  // the front desk's day in Northwind's zone (Asia/Kuala_Lumpur), as the server counts it
  today = (await s.db.query<{ d: string }>("select (now() at time zone 'Asia/Kuala_Lumpur')::date::text d")).rows[0].d;
});
afterAll(async () => {
  await s.close();
});

describe('visitors', () => {
  it('registers a visitor valid until the end of the visit day in the client zone, and audits it without the photo', async () => {
    const r = await s.call('POST', '/visitor/1.0/visitors', { token: reception, body: valid() });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      firstName: 'Nurul Aini',
      lastName: 'binti Ismail',
      status: 'expected',
      visitDate: today,
      photo: PNG,
      createdBy: 'Rita Reception',
      badgePrintedAt: null,
    });
    // midnight after the visit day in Kuala Lumpur (UTC+8) is 16:00 UTC of the visit day
    expect(r.body.validUntil).toBe(`${today}T16:00:00.000Z`);
    const audit = await s.db.query<any>("select actor, action, after from audit_log where entity = 'visitor' and entity_id = $1", [String(r.body.id)]);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0]).toMatchObject({ actor: 'reception', action: 'create' });
    expect(audit.rows[0].after.photo).toBe('(photo)');

    const one = await s.call('GET', `/visitor/1.0/visitors/${r.body.id}`, { token: reception });
    expect(one.body.photo).toBe(PNG);
    const list = await s.call('GET', '/visitor/1.0/visitors?q=acme', { token: reception });
    expect(list.body.items.map((v: any) => v.id)).toContain(r.body.id);
    expect(list.body.items[0].photo).toBeNull(); // lists leave photos out
  });

  it('records a printed badge, audited', async () => {
    const v = (await s.call('POST', '/visitor/1.0/visitors', { token: reception, body: valid({ firstName: 'Badge', lastName: 'Holder' }) })).body;
    const r = await s.call('POST', `/visitor/1.0/visitors/${v.id}/badge-printed`, { token: reception });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.badgePrintedAt)).not.toBeNaN();
    expect(await s.count(`select * from audit_log where entity = 'visitor' and action = 'badge-printed' and entity_id = '${v.id}'`)).toBe(1);
  });

  it('signs a visitor in on arrival and out on leaving, once each, in that order, audited', async () => {
    const v = (await s.call('POST', '/visitor/1.0/visitors', { token: reception, body: valid({ firstName: 'Walks', lastName: 'Through' }) })).body;
    const early = await s.call('POST', `/visitor/1.0/visitors/${v.id}/sign-out`, { token: reception });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Only a visitor who is on site can be signed out');
    const inn = await s.call('POST', `/visitor/1.0/visitors/${v.id}/sign-in`, { token: reception });
    expect(inn.status).toBe(200);
    expect(inn.body.status).toBe('on-site');
    expect(Date.parse(inn.body.signedInAt)).not.toBeNaN();
    const again = await s.call('POST', `/visitor/1.0/visitors/${v.id}/sign-in`, { token: reception });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Walks Through is already signed in');
    const out = await s.call('POST', `/visitor/1.0/visitors/${v.id}/sign-out`, { token: reception });
    expect(out.body).toMatchObject({ status: 'left' });
    expect(Date.parse(out.body.signedOutAt)).not.toBeNaN();
    const back = await s.call('POST', `/visitor/1.0/visitors/${v.id}/sign-in`, { token: reception });
    expect(back.status).toBe(409);
    const trail = await s.db.query<any>("select action, before, after from audit_log where entity = 'visitor' and entity_id = $1 order by id", [String(v.id)]);
    expect(trail.rows.map((r) => [r.action, r.before?.status ?? null, r.after?.status ?? null])).toEqual([
      ['create', null, 'expected'],
      ['sign-in', 'expected', 'on-site'],
      ['sign-out', 'on-site', 'left'],
    ]);
    expect((await s.call('POST', `/visitor/1.0/visitors/${v.id}/sign-in`, { token: harbour })).status).toBe(404);
    expect((await s.call('POST', `/visitor/1.0/visitors/${v.id}/sign-out`, { token: hr })).status).toBe(403);
  });

  it('rejects bad input with violations and stores nothing', async () => {
    const before = await s.count('select * from visitors');
    const audits = await s.count('select * from audit_log');
    const bad = await s.call('POST', '/visitor/1.0/visitors', {
      token: reception,
      body: valid({ firstName: ' ', hostName: '', purpose: 'party', email: 'nope', photo: 'javascript:alert(1)' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: any) => v.field)).toEqual(expect.arrayContaining(['firstName', 'hostName', 'purpose', 'email', 'photo']));
    const past = await s.call('POST', '/visitor/1.0/visitors', { token: reception, body: valid({ visitDate: '2020-01-01' }) });
    expect(past.status).toBe(400);
    expect(past.body.violations[0]).toEqual({ field: 'visitDate', message: `must not be before today (${today})`, code: 'day.beforeToday', values: { today } });
    const nonsense = await s.call('POST', '/visitor/1.0/visitors', { token: reception, body: valid({ visitDate: '2026-13-45' }) });
    expect(nonsense.status).toBe(400);
    const garbage = await s.call('POST', '/visitor/1.0/visitors', { token: reception, raw: '{"firstName":' });
    expect(garbage.status).toBe(400);
    const badFilter = await s.call('GET', '/visitor/1.0/visitors?status=gone', { token: reception });
    expect(badFilter.status).toBe(400);
    expect(await s.count('select * from visitors')).toBe(before);
    expect(await s.count('select * from audit_log')).toBe(audits);
  });

  it("counts a visit's day from today in the client's zone, whatever the receptionist's own zone: the form's day (contract clientToday)", async () => {
    // Kiritimati (+14) and Pago Pago (−11) are 25 hours apart: their calendar days always differ
    const AHEAD = 'Pacific/Kiritimati';
    const BEHIND = 'Pacific/Pago_Pago';
    const northwind = "(select id from clients where code = 'NORTHWIND')";
    const was = (
      await s.db.query<{ c: string; u: string | null }>(
        `select (select timezone from clients where id = ${northwind}) c, (select timezone from users where username = 'reception') u`,
      )
    ).rows[0];
    await s.db.query(`update clients set timezone = $1 where id = ${northwind}`, [AHEAD]);
    await s.db.query(`update users set timezone = $1 where username = 'reception'`, [BEHIND]);
    try {
      const clientDay = clientToday(AHEAD, Date.now());
      const viewerDay = todayInZone(BEHIND, Date.now());
      expect(viewerDay < clientDay).toBe(true);
      // the receptionist's today is yesterday for the client: refused, in the words the form says
      const early = await s.call('POST', '/visitor/1.0/visitors', { token: reception, body: valid({ visitDate: viewerDay }) });
      expect(early.status).toBe(400);
      expect(early.body.violations).toEqual([
        { field: 'visitDate', message: `must not be before today (${clientDay})`, code: 'day.beforeToday', values: { today: clientDay } },
      ]);
      const requested = await s.call('POST', '/visitor/1.0/visit-requests', {
        token: reception,
        body: { firstName: 'Ola', lastName: 'Berg', hostName: 'Sam Operator', purpose: 'meeting', visitDate: viewerDay },
      });
      expect(requested.body.violations?.find((v: { field: string }) => v.field === 'visitDate')).toEqual({
        field: 'visitDate',
        message: `must not be before today (${clientDay})`,
        code: 'day.beforeToday',
        values: { today: clientDay },
      });
      const onTime = await s.call('POST', '/visitor/1.0/visitors', { token: reception, body: valid({ visitDate: clientDay }) });
      expect(onTime.status).toBe(201);
      expect(onTime.body.visitDate).toBe(clientDay);
    } finally {
      await s.db.query(`update clients set timezone = $1 where id = ${northwind}`, [was.c]);
      await s.db.query(`update users set timezone = $1 where username = 'reception'`, [was.u]);
    }
  });

  it('keeps tenants apart and checks privileges', async () => {
    const v = (await s.call('POST', '/visitor/1.0/visitors', { token: reception, body: valid({ firstName: 'Only', lastName: 'Northwind' }) })).body;
    expect((await s.call('GET', `/visitor/1.0/visitors/${v.id}`, { token: harbour })).status).toBe(404);
    expect((await s.call('POST', `/visitor/1.0/visitors/${v.id}/badge-printed`, { token: harbour })).status).toBe(404);
    const theirs = await s.call('GET', '/visitor/1.0/visitors?size=1000', { token: harbour });
    expect(theirs.body.items.some((x: any) => x.id === v.id)).toBe(false);
    expect((await s.call('GET', '/visitor/1.0/visitors', { token: hr })).status).toBe(403);
    expect((await s.call('POST', '/visitor/1.0/visitors', { token: hr, body: valid() })).status).toBe(403);
    expect((await s.call('GET', '/visitor/1.0/visitors/abc', { token: reception })).status).toBe(404);
  });
});
