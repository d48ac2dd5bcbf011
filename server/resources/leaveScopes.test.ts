// The leave list's scopes bound to the signed-in user (issue 50; contract leaveResource.scopes, server/crud/scopes.ts).
// `mine`: only the leave of the operator's own identity (the identity of the client with their e-mail), never another
// person's nor another client's. `waitingForMe`: only requests the approver may decide: pending, of a member of a team
// they approve, in a division where they hold 3.8.2, never their own nor one they filed. A member of staff holding only
// 3.8.3 (Request own leave) is held to `mine` whatever they ask: the list, the export, a record, the identity picker,
// and a request for someone else is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identitiesResource, leaveResource } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let admin: string, hr: string, staffToken: string;
let client: number, category: number;
const who: Record<string, number> = {};
const leave: Record<string, number> = {};
type Item = { id: number; identityId: number; status: string };

beforeAll(async () => {
  s = await startTestServer();
  const q = async (sql: string, p: unknown[] = []) => (await s.db.query<any>(sql, p)).rows;
  [{ id: client }] = await q(`select id from clients where code = 'NORTHWIND'`);
  const [{ id: harbour }] = await q(`select id from clients where code = 'HARBOUR'`);
  const [{ hq }] = await q(`select id hq from divisions where client_id = $1 and parent_id is null order by id limit 1`, [client]);
  // a division outside Hana HR's grant (hers is the head office's subtree): a root of its own
  const [{ id: far }] = await q(`insert into divisions (client_id, name) values ($1, 'Scopes far site') returning id`, [client]);
  const [{ id: team }] = await q(`select id from teams where client_id = $1 order by id limit 1`, [client]);
  const person = async (key: string, division: number, email: string | null, c = client) => {
    [{ id: who[key] }] = await q(
      `insert into identities (client_id, first_name, last_name, employee_no, division_id, status, email) values ($1, 'Scopes', $2, 'SC-' || $2, $3, 'active', $4) returning id`,
      [c, key, division, email],
    );
    if (c === client) await q('insert into team_members (team_id, identity_id) values ($1, $2)', [team, who[key]]);
  };
  await person('Mine', hq, 'scopes.mine@northwind.example');
  await person('Other', hq, null);
  await person('Far', far, null);
  await person('Hana', hq, 'scopes.hana@northwind.example');
  const [{ hhq }] = await q(`select id hhq from divisions where client_id = $1 and parent_id is null order by id limit 1`, [harbour]);
  await person('Elsewhere', hhq, 'scopes.mine@northwind.example', harbour); // the same e-mail in another client
  await q(`update users set email = 'scopes.mine@northwind.example' where username = 'staff'`);
  await q(`update users set email = 'scopes.hana@northwind.example' where username = 'hr'`);
  [admin, hr, staffToken] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('hr'), s.login('staff')]);
  [{ id: category }] = await q(`select id from leave_categories where client_id = $1 and code = 'AL'`, [client]);
  const [{ id: hCategory }] = await q(`select id from leave_categories where client_id = $1 order by id limit 1`, [harbour]);
  const file = async (key: string, person: string, token: string) => {
    const r = await s.call('POST', leaveResource.api, {
      token,
      body: { identityId: who[person], categoryId: category, fromDate: '2026-12-14', toDate: '2026-12-15' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    leave[key] = r.body.id;
  };
  await file('mine', 'Mine', admin);
  await file('other', 'Other', admin);
  await file('otherByHana', 'Other', hr); // filed by the approver herself: not hers to decide
  // (outside the admin's grant too: written as it stands)
  [{ id: leave.far }] = await q(
    `insert into leave_records (client_id, identity_id, category_id, from_date, to_date, status) values ($1, $2, $3, '2026-12-14', '2026-12-14', 'requested') returning id`,
    [client, who.Far, category],
  );
  await file('hana', 'Hana', admin); // her own
  await file('decided', 'Other', admin);
  await q(`update leave_records set status = 'approved' where id = $1`, [leave.decided]);
  [{ id: leave.elsewhere }] = await q(
    `insert into leave_records (client_id, identity_id, category_id, from_date, to_date, status) values ($1, $2, $3, '2026-12-14', '2026-12-14', 'requested') returning id`,
    [harbour, who.Elsewhere, hCategory],
  );
}, 180_000);
afterAll(async () => {
  await s?.close();
});

const list = async (token: string, query = '') => {
  const r = await s.call('GET', `${leaveResource.api}?size=200${query}`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.items as Item[];
};
const ids = (items: Item[]) => items.map((x) => x.id).sort((a, b) => a - b);

describe('the leave list scoped to the signed-in user', () => {
  it('mine shows only the leave of the operator’s own identity, in their own client', async () => {
    const mine = await list(hr, '&scope=mine');
    expect(ids(mine)).toEqual([leave.hana]);
    expect((await list(admin, '&scope=mine')).length).toBe(0); // the admin is nobody’s identity
  });

  it('waitingForMe shows only pending requests the approver may decide: never their own, one they filed, or one outside their divisions', async () => {
    const waiting = await list(hr, '&scope=waitingForMe');
    expect(ids(waiting)).toEqual([leave.other, leave.mine].sort((a, b) => a - b));
    for (const x of waiting) {
      expect(x.status).toBe('requested');
      expect([who.Hana, who.Far, who.Elsewhere]).not.toContain(x.identityId);
    }
    // and each one shown is one the approver may approve; the one outside her divisions she may not
    expect((await s.call('POST', `${leaveResource.api}/${leave.far}/approve`, { token: hr, body: {} })).status).toBe(403);
  });

  it('an unknown scope is refused, not ignored', async () => {
    expect((await s.call('GET', `${leaveResource.api}?scope=everyone`, { token: hr })).status).toBe(400);
  });
});

describe('a member of staff holding only Request own leave', () => {
  it('lists, exports and opens only their own leave, whatever scope they ask for', async () => {
    expect(ids(await list(staffToken))).toEqual([leave.mine]);
    expect(ids(await list(staffToken, '&scope=waitingForMe'))).toEqual([]);
    const csv = await s.call('GET', `${leaveResource.api}/export?format=ndjson`, { token: staffToken });
    expect(csv.status).toBe(200);
    // one line parses as one object; more stay text
    const lines =
      typeof csv.body === 'string'
        ? csv.body
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
        : [csv.body];
    const exported = lines.map((x: { id: number }) => x.id);
    expect(exported).toEqual([leave.mine]);
    expect((await s.call('GET', `${leaveResource.api}/${leave.mine}`, { token: staffToken })).status).toBe(200);
    for (const id of [leave.other, leave.hana, leave.elsewhere])
      expect((await s.call('GET', `${leaveResource.api}/${id}`, { token: staffToken })).status).toBe(404);
  });

  it('picks only themselves as the person, and files leave for nobody else', async () => {
    const options = await s.call('GET', `${identitiesResource.api}/options?q=Scopes`, { token: staffToken });
    expect(options.status).toBe(200);
    expect(options.body.items.map((o: { id: number }) => o.id)).toEqual([who.Mine]);
    const body = { identityId: who.Other, categoryId: category, fromDate: '2026-12-21', toDate: '2026-12-21' };
    const refused = await s.call('POST', leaveResource.api, { token: staffToken, body });
    expect(refused.status).toBe(403);
    expect(refused.body.violations?.[0]?.field).toBe('identityId');
    const filed = await s.call('POST', leaveResource.api, { token: staffToken, body: { ...body, identityId: who.Mine } });
    expect(filed.status).toBe(201);
    expect(filed.body.status).toBe('requested');
    expect((await s.call('PUT', `${leaveResource.api}/${filed.body.id}`, { token: staffToken, body: { ...body, identityId: who.Mine } })).status).toBe(403);
    expect((await s.call('POST', `${leaveResource.api}/${filed.body.id}/approve`, { token: staffToken, body: {} })).status).toBe(403);
  });

  it('is told which member of staff they are, at sign-in and by /me (the form of their own leave starts with it)', async () => {
    expect((await s.call('GET', '/idp/1.0/me', { token: staffToken })).body.user.identityId).toBe(who.Mine);
    const again = await s.call('POST', '/idp/1.0/login', { body: { username: 'staff', password: 'Gatehouse1!' } });
    expect(again.body.user.identityId).toBe(who.Mine);
    // an operator whose e-mail is no member of staff's in the client is none
    expect((await s.call('GET', '/idp/1.0/me', { token: admin })).body.user.identityId).toBeNull();
  });

  it('withdraws their own request while nobody has decided it, with a reason the approvers see; no one else’s, nothing decided', async () => {
    const body = { identityId: who.Mine, categoryId: category, fromDate: '2027-01-04', toDate: '2027-01-05' };
    const filed = await s.call('POST', leaveResource.api, { token: staffToken, body });
    expect(filed.status).toBe(201);
    const id = filed.body.id;
    const bad = await s.call('POST', `${leaveResource.api}/${id}/withdraw`, { token: staffToken, body: { reason: 'x'.repeat(501) } });
    expect(bad.status).toBe(400);
    expect(bad.body.violations?.[0]?.field).toBe('reason');
    const done = await s.call('POST', `${leaveResource.api}/${id}/withdraw`, { token: staffToken, body: { reason: 'The wedding moved' } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: 'withdrawn', decisionNote: 'The wedding moved', decidedBy: 'Omar Goh' });
    expect(await s.count(`select 1 from audit_log where entity = 'leave' and entity_id = $1 and action = 'withdraw'`, [String(id)])).toBe(1);
    // once withdrawn, it is no longer waiting for anyone: neither withdrawn again nor approved
    expect((await s.call('POST', `${leaveResource.api}/${id}/withdraw`, { token: staffToken, body: {} })).status).toBe(409);
    expect((await s.call('POST', `${leaveResource.api}/${id}/approve`, { token: hr, body: {} })).status).toBe(409);
    expect(ids(await list(hr, '&scope=waitingForMe'))).not.toContain(id);
    // another person's request, and a decided one of someone else: not theirs (404, as any row they cannot see)
    for (const other of [leave.other, leave.decided, leave.elsewhere])
      expect((await s.call('POST', `${leaveResource.api}/${other}/withdraw`, { token: staffToken, body: {} })).status).toBe(404);
    // the approver filed Other's request, but withdrawing is the person's own (3.8.3 holds her to her own leave)
    expect((await s.call('POST', `${leaveResource.api}/${leave.otherByHana}/withdraw`, { token: hr, body: {} })).status).toBe(404);
    const [{ status }] = (await s.db.query<{ status: string }>('select status from leave_records where id = $1', [leave.other])).rows;
    expect(status).toBe('requested');
  });
});
