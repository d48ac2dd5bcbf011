// Visit requests [1.4.x]: filed by whoever may register visitors, approved (a registration for the day, in the same
// transaction) or declined with a reason by 1.4.1 holders only, each once; the view code reads them; another client's
// request is 404; a refused decision changes nothing. Also the date range filter upcoming visits read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitRequestsResource, visitorsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let reception: string, auditor: string, operator: string, harbour: string;
const API = visitRequestsResource.api;

beforeAll(async () => {
  s = await startTestServer();
  [reception, auditor, operator, harbour] = await Promise.all([s.login('reception'), s.login('auditor'), s.login('operator'), s.login('harbour')]);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

/** A day counted from today in the Northwind client's zone. */
async function day(offset: number): Promise<string> {
  const { rows } = await s.db.query<{ d: string }>(`select ((now() at time zone timezone)::date + $1::int)::text d from clients where code = 'NORTHWIND'`, [
    offset,
  ]);
  return rows[0].d;
}
async function file(body: Record<string, unknown> = {}) {
  const r = await s.call('POST', API, {
    token: reception,
    body: { firstName: 'Ola', lastName: 'Berg', hostName: 'Ben Brown', purpose: 'meeting', visitDate: await day(3), ...body },
  });
  expect(r.status).toBe(201);
  return r.body as { id: number; status: string; requestedBy: string };
}
const state = async (id: number) =>
  (
    await s.db.query<{ status: string; visitor_id: number | null; decision_note: string | null }>(
      'select status, visitor_id, decision_note from visit_requests where id = $1',
      [id],
    )
  ).rows[0];
const audits = (id: number, action: string) =>
  s.count(`select 1 from audit_log where entity = 'visit request' and entity_id = $1 and action = $2`, [id, action]);

describe('visit requests', () => {
  it('are filed for a day ahead by whoever registers visitors, waiting, with who filed them', async () => {
    const made = await file({ company: 'Berg & Co', note: 'Needs parking' });
    expect(made).toMatchObject({ status: 'pending', requestedBy: 'Rita Reception' });
    const past = await s.call('POST', API, {
      token: reception,
      body: { firstName: 'Ola', lastName: 'Berg', hostName: 'Ben', purpose: 'meeting', visitDate: await day(-1) },
    });
    expect(past.status).toBe(400);
    expect(past.body.violations.map((v: { field: string }) => v.field)).toEqual(['visitDate']);
    // status is the server's: a request filed as approved is refused, naming it
    const sneaky = await s.call('POST', API, {
      token: reception,
      body: { firstName: 'Ola', lastName: 'Sneaky', hostName: 'Ben', purpose: 'meeting', visitDate: await day(2), status: 'approved' },
    });
    expect(sneaky.status).toBe(400);
    expect(sneaky.body.violations.map((v: { field: string }) => v.field)).toEqual(['status']);
    expect(await s.count(`select 1 from visit_requests where last_name = 'Sneaky'`)).toBe(0);
    // the view code reads them; filing or deciding needs more
    expect((await s.call('GET', `${API}/${made.id}`, { token: auditor })).status).toBe(200);
    expect(
      (await s.call('POST', API, { token: auditor, body: { firstName: 'A', lastName: 'B', hostName: 'C', purpose: 'meeting', visitDate: await day(2) } }))
        .status,
    ).toBe(403);
    expect((await s.call('GET', API, { token: operator })).status).toBe(403);
  });

  it('approving registers the visitor for the day, once; the registration is linked and audited', async () => {
    const r = await file({ lastName: 'Approved', company: 'Lindqvist AB', email: 'ola@lindqvist.example' });
    expect((await s.call('POST', `${API}/${r.id}/approve`, { token: auditor, body: {} })).status).toBe(403);
    const ok = await s.call('POST', `${API}/${r.id}/approve`, { token: reception, body: {} });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'approved', decidedBy: 'Rita Reception' });
    expect(typeof ok.body.decidedAt).toBe('string');
    const visitor = await s.call('GET', `${visitorsResource.api}/${ok.body.visitorId}`, { token: reception });
    expect(visitor.body).toMatchObject({
      firstName: 'Ola',
      lastName: 'Approved',
      company: 'Lindqvist AB',
      email: 'ola@lindqvist.example',
      hostName: 'Ben Brown',
      visitDate: await day(3),
      status: 'expected',
    });
    // the badge is valid to the end of that day in the client's zone (Asia/Kuala_Lumpur, UTC+8)
    expect(new Date(visitor.body.validUntil).toISOString()).toBe(new Date(`${await day(4)}T00:00:00+08:00`).toISOString());
    expect(await audits(r.id, 'approve')).toBe(1);

    const again = await s.call('POST', `${API}/${r.id}/approve`, { token: reception, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Approve is no longer possible: this visit request is now “Approved”.');
    const decline = await s.call('POST', `${API}/${r.id}/decline`, { token: reception, body: { reason: 'Changed my mind' } });
    expect(decline.status).toBe(409);
    expect(await s.count(`select 1 from visitors where last_name = 'Approved'`)).toBe(1);
    expect(await state(r.id)).toMatchObject({ status: 'approved', decision_note: null });
  });

  it('declining needs a reason, keeps it, and leaves no registration', async () => {
    const r = await file({ lastName: 'Declined' });
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 'bad\u0000text' }]) {
      const refused = await s.call('POST', `${API}/${r.id}/decline`, { token: reception, body });
      expect(refused.status).toBe(400);
      expect(refused.body.violations.map((v: { field: string }) => v.field)).toEqual(['reason']);
    }
    expect(await state(r.id)).toMatchObject({ status: 'pending', decision_note: null });
    expect(await audits(r.id, 'decline')).toBe(0);
    const ok = await s.call('POST', `${API}/${r.id}/decline`, { token: reception, body: { reason: 'The site is closed that day' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'declined', decisionNote: 'The site is closed that day', visitorId: null });
    expect((await s.call('POST', `${API}/${r.id}/approve`, { token: reception, body: {} })).status).toBe(409);
    expect(await s.count(`select 1 from visitors where last_name = 'Declined'`)).toBe(0);
    expect(await audits(r.id, 'decline')).toBe(1);
  });

  it('a request whose day has passed cannot become a registration', async () => {
    const r = await file({ lastName: 'Late' });
    await s.db.query(`update visit_requests set visit_date = visit_date - 10 where id = $1`, [r.id]);
    const late = await s.call('POST', `${API}/${r.id}/approve`, { token: reception, body: {} });
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/^The day of this visit \(\d{4}-\d{2}-\d{2}\) has passed/);
    expect(await state(r.id)).toMatchObject({ status: 'pending', visitor_id: null });
  });

  it("another client's request is not found, for reading and for deciding", async () => {
    const r = await file({ lastName: 'Northwind' });
    expect((await s.call('GET', `${API}/${r.id}`, { token: harbour })).status).toBe(404);
    expect((await s.call('POST', `${API}/${r.id}/approve`, { token: harbour, body: {} })).status).toBe(404);
    expect((await s.call('POST', `${API}/${r.id}/decline`, { token: harbour, body: { reason: 'Not ours' } })).status).toBe(404);
    expect(await state(r.id)).toMatchObject({ status: 'pending' });
  });
});

describe('date range filters (upcoming visits)', () => {
  it('list the rows from and to a day, each day included, and refuse a date that does not exist', async () => {
    const [tomorrow, inThree] = [await day(1), await day(3)];
    const all = (await s.call('GET', `${visitorsResource.api}?size=1000`, { token: reception })).body.items as { visitDate: string }[];
    const from = (await s.call('GET', `${visitorsResource.api}?size=1000&visitDateFrom=${tomorrow}`, { token: reception })).body.items as {
      visitDate: string;
    }[];
    expect(from.length).toBeGreaterThan(0);
    expect(from.length).toBe(all.filter((v) => v.visitDate >= tomorrow).length);
    const window = (await s.call('GET', `${visitorsResource.api}?size=1000&visitDateFrom=${tomorrow}&visitDateTo=${inThree}`, { token: reception })).body
      .items as { visitDate: string }[];
    expect(window.length).toBe(all.filter((v) => v.visitDate >= tomorrow && v.visitDate <= inThree).length);
    expect(window.length).toBeLessThan(from.length + 1);
    const bad = await s.call('GET', `${visitorsResource.api}?visitDateFrom=2025-02-30`, { token: reception });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: { field: string }) => v.field)).toEqual(['visitDateFrom']);
  });
});
