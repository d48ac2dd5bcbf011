// The visitor watchlist (issue 50): entries per client; a registration or visit request that matches (same name in
// any case and accents, a similar name, the same document number) answers with the warning and the entry's reason,
// keeps and audits the match, raises an alarm for security (event 7100), and waits for the front desk's decision: a
// visitor with an undecided or refused match is not signed in; Let in / Refuse are 1.5.4's, audited; approving a
// request lets its visitor in, declining refuses them. Another client's entries match nothing; an expired entry neither.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_CODES, visitRequestsResource, visitorWatchlistResource, visitorsResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, reception: string, operator: string, harbour: string;
const LIST = visitorWatchlistResource.api;

beforeAll(async () => {
  s = await startTestServer();
  [admin, reception, operator, harbour] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('reception'), s.login('operator'), s.login('harbour')]);
}, 180_000);
afterAll(async () => {
  await s?.close();
});

async function day(offset: number): Promise<string> {
  const { rows } = await s.db.query<{ d: string }>(`select ((now() at time zone timezone)::date + $1::int)::text d from clients where code = 'NORTHWIND'`, [
    offset,
  ]);
  return rows[0].d;
}
async function entry(body: Record<string, unknown>, token = admin) {
  const r = await s.call('POST', LIST, { token, body: { kind: 'deny', reason: 'Threatened staff on 3 Nov', ...body } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; addedBy: string };
}
async function register(body: Record<string, unknown>) {
  const r = await s.call('POST', visitorsResource.api, {
    token: reception,
    body: { hostName: 'Ben Brown', purpose: 'meeting', visitDate: await day(0), ...body },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: number; watchlist: string | null; watchlistReason: string | null; status: string };
}
const alarmsOf = (source: string) =>
  s.count(`select 1 from alarms a join events e on e.id = a.event_id where e.event_source_id = $1 and e.event_code = $2`, [
    source,
    EVENT_CODES.visitorWatchlistMatch,
  ]);

describe('the visitor watchlist', () => {
  it('is kept per client by its codes, with who added each entry', async () => {
    const made = await entry({ fullName: 'Viktor Kessler', dateOfBirth: '1971-04-02', documentNumber: 'K-1234 567' });
    expect(made.addedBy).toBe('Alex Admin');
    // security keeps the list (1.5.0–1.5.3); the front desk reads it and decides its matches, and cannot take a denied
    // person off it, nor add or change an entry (issue 50)
    expect((await s.call('GET', LIST, { token: operator })).status).toBe(200);
    expect((await s.call('GET', LIST, { token: reception })).status).toBe(200);
    expect((await s.call('DELETE', `${LIST}/${made.id}`, { token: reception })).status).toBe(403);
    expect((await s.call('POST', LIST, { token: reception, body: { kind: 'deny', fullName: 'A Friend', reason: 'x' } })).status).toBe(403);
    const byOperator = await entry({ fullName: 'Ilse Brandt', reason: 'Tailgated twice in October' }, operator);
    expect(byOperator.addedBy).toBe('Sam Operator');
    expect((await s.call('GET', `${LIST}/${made.id}`, { token: harbour })).status).toBe(404);
    const bad = await s.call('POST', LIST, { token: admin, body: { fullName: '', kind: 'deny' } });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: { field: string }) => v.field).sort()).toEqual(['fullName', 'reason']);
  });

  it('warns the front desk of a registration with the same name in other case and accents, keeps and audits the match, and raises an alarm', async () => {
    await entry({ fullName: 'Zoë Müller', reason: 'Stole a laptop in March' });
    const v = await register({ firstName: 'ZOE', lastName: 'muller' });
    expect(v.watchlist).toBe('open');
    expect(v.watchlistReason).toContain('Zoë Müller (deny entry, same name): Stole a laptop in March');
    expect(await s.count(`select 1 from audit_log where action = 'watchlist-match' and entity = 'visitor' and entity_id = $1`, [String(v.id)])).toBe(1);
    await vi.waitFor(async () => expect(await alarmsOf(`visitor-${v.id}`)).toBe(1), { timeout: 10_000, interval: 50 });
    await vi.waitFor(
      async () => expect(await s.count('select 1 from visitor_watchlist_matches where visitor_id = $1 and alarm_event_id is not null', [v.id])).toBe(1),
      { timeout: 10_000, interval: 50 },
    );
    // the operator (security) sees the alarm with its priority and the visitor's name
    const { rows } = await s.db.query<{ priority: number; message: string }>(
      `select a.priority, e.message from alarms a join events e on e.id = a.event_id where e.event_source_id = $1`,
      [`visitor-${v.id}`],
    );
    expect(rows[0].priority).toBe(2);
    expect(rows[0].message).toContain('ZOE muller');
  });

  it("shows the matched entry's photo on the visitor's record (not in the list), and none on a visitor that matched nothing", async () => {
    const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    await entry({ fullName: 'Ines Fotografa', reason: 'Photographed the server room', photo: PNG }, operator);
    const v = await register({ firstName: 'Ines', lastName: 'Fotografa' });
    expect(v.watchlist).toBe('open');
    const record = await s.call('GET', `${visitorsResource.api}/${v.id}`, { token: reception });
    expect(record.body.watchlistPhoto).toBe(PNG);
    const list = await s.call('GET', `${visitorsResource.api}?q=Fotografa`, { token: reception });
    expect(list.body.items.map((i: any) => [i.id, i.watchlistPhoto])).toEqual([[v.id, null]]);
    const other = await register({ firstName: 'Quentin', lastName: 'Unlisted' });
    expect((await s.call('GET', `${visitorsResource.api}/${other.id}`, { token: reception })).body.watchlistPhoto).toBeNull();
    // the photo is kept out of the audit trail
    expect(await s.count(`select 1 from audit_log where entity = 'visitor' and position($1 in coalesce(after::text, '')) > 0`, [PNG.slice(30)])).toBe(0);
  });

  it('matches a similar name and the same document number, and not a different person', async () => {
    await entry({ fullName: 'Johnathan Smithers', kind: 'watch', reason: 'Former contractor, escort him' });
    const similar = await register({ firstName: 'Jonathan', lastName: 'Smithers' });
    expect(similar.watchlist).toBe('open');
    expect(similar.watchlistReason).toContain('(watch, similar name)');
    const doc = await register({ firstName: 'Peter', lastName: 'Other', idNumber: 'k1234567' });
    expect(doc.watchlistReason).toContain('Viktor Kessler (deny entry, same document number)');
    const clean = await register({ firstName: 'Jane', lastName: 'Smith' });
    expect(clean.watchlist).toBeNull();
    expect(await alarmsOf(`visitor-${clean.id}`)).toBe(0);
  });

  it('keeps a matched visitor out until the front desk decides, and audits the decision', async () => {
    await entry({ fullName: 'Mallory Crane' });
    const v = await register({ firstName: 'Mallory', lastName: 'Crane' });
    const early = await s.call('POST', `${visitorsResource.api}/${v.id}/sign-in`, { token: reception });
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('matches the visitor watchlist');
    // the reason is required; the operator (no 1.5.4) may not decide
    expect((await s.call('POST', `${visitorsResource.api}/${v.id}/watchlist-admit`, { token: reception, body: {} })).status).toBe(400);
    expect((await s.call('POST', `${visitorsResource.api}/${v.id}/watchlist-admit`, { token: operator, body: { reason: 'x' } })).status).toBe(403);
    const ok = await s.call('POST', `${visitorsResource.api}/${v.id}/watchlist-admit`, { token: reception, body: { reason: 'Other date of birth' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.watchlist).toBe('admitted');
    const { rows } = await s.db.query<{ after: { watchlist: string } }>(
      `select after from audit_log where entity = 'visitor' and entity_id = $1 and action = 'watchlist-admit'`,
      [String(v.id)],
    );
    expect(rows[0].after.watchlist).toBe('admitted');
    expect((await s.call('POST', `${visitorsResource.api}/${v.id}/sign-in`, { token: reception })).status).toBe(200);
    // decided once: a second decision is refused
    expect((await s.call('POST', `${visitorsResource.api}/${v.id}/watchlist-refuse`, { token: reception, body: { reason: 'x' } })).status).toBe(409);

    const refused = await register({ firstName: 'Mallory', lastName: 'Crane' });
    expect((await s.call('POST', `${visitorsResource.api}/${refused.id}/watchlist-refuse`, { token: reception, body: { reason: 'Sent away' } })).status).toBe(
      200,
    );
    const after = await s.call('POST', `${visitorsResource.api}/${refused.id}/sign-in`, { token: reception });
    expect(after.status).toBe(409);
    expect(after.body.message).toContain('refused after the watchlist check');
  });

  it('holds visit requests against it too: approving lets the visitor in, declining refuses them', async () => {
    await entry({ fullName: 'Oskar Brandt' });
    const file = async () => {
      const r = await s.call('POST', visitRequestsResource.api, {
        token: reception,
        body: { firstName: 'Oskar', lastName: 'Brandt', hostName: 'Ben', purpose: 'meeting', visitDate: await day(2) },
      });
      expect(r.status).toBe(201);
      expect(r.body.watchlist).toBe('open');
      expect(r.body.watchlistReason).toContain('Oskar Brandt');
      return r.body.id as number;
    };
    const a = await file();
    await vi.waitFor(async () => expect(await alarmsOf(`visit-request-${a}`)).toBe(1), { timeout: 10_000, interval: 50 });
    const approved = await s.call('POST', `${visitRequestsResource.api}/${a}/approve`, { token: reception });
    expect(approved.status).toBe(200);
    expect(approved.body.watchlist).toBe('admitted');
    const visitor = await s.call('GET', `${visitorsResource.api}/${approved.body.visitorId}`, { token: reception });
    expect(visitor.body.watchlist).toBe('admitted');
    const d = await file();
    const declined = await s.call('POST', `${visitRequestsResource.api}/${d}/decline`, { token: reception, body: { reason: 'On the deny list' } });
    expect(declined.body.watchlist).toBe('refused');
  });

  it('counts only the client’s own entries in force', async () => {
    const theirs = await s.call('POST', LIST, { token: harbour, body: { fullName: 'Greta Holm', kind: 'deny', reason: 'Harbour only' } });
    expect(theirs.status).toBe(201);
    await entry({ fullName: 'Ivo Past', until: await day(-1) });
    expect((await register({ firstName: 'Greta', lastName: 'Holm' })).watchlist).toBeNull();
    expect((await register({ firstName: 'Ivo', lastName: 'Past' })).watchlist).toBeNull();
  });
});
