import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testkit';
import { connected, waitFor } from '../realtime/testkit';

const OPS = '/idp/1.0/operator-sessions';
const SVC = '/idp/1.0/service-account-sessions';

let s: TestServer;
let nw: string; // admin working in Northwind
let hb: string; // harbour: administrator of Harbour Health only
let op: string; // operator at Northwind (may view sessions, may not end them)

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

async function loginWithAgent(username: string): Promise<string> {
  const r = await s.call('POST', '/idp/1.0/login', { body: { username, password: 'Gatehouse1!' }, headers: { 'user-agent': UA } });
  expect(r.status).toBe(200);
  return r.body.token;
}
const list = async (token: string, path = OPS, qs = '') => s.call('GET', `${path}${qs}`, { token });
const rowOf = (items: any[], username: string) => items.find((r: any) => r.username === username);
const openSessions = () => s.count('select 1 from sessions where ended_at is null');

beforeAll(async () => {
  s = await startTestServer();
  const admin = await s.login('admin');
  const clients = await s.call('GET', '/central/1.0/clients', { token: admin });
  const northwind = clients.body.items.find((c: any) => c.code === 'NORTHWIND').id;
  nw = (await s.call('PUT', '/idp/1.0/me/client', { token: admin, body: { clientId: northwind } })).body.token;
  hb = await s.login('harbour');
  op = await loginWithAgent('operator');
});
afterAll(async () => {
  await s.close();
});

describe('operator sessions', () => {
  it("lists who is signed in to the client: user, address, browser, times, and marks the caller's own session", async () => {
    const r = await list(nw);
    expect(r.status).toBe(200);
    const mine = rowOf(r.body.items, 'admin');
    expect(mine).toMatchObject({ kind: 'operator', state: 'open', current: true, name: 'Alex Admin', ip: '127.0.0.1' });
    const theirs = rowOf(r.body.items, 'operator');
    expect(theirs).toMatchObject({ name: 'Sam Operator', state: 'open', current: false, userAgent: UA, endedAt: null, endedBy: null });
    expect(Date.parse(theirs.startedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(Date.parse(theirs.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(theirs.startedAt) - 1000);
    // open only by default: admin's first session ended when admin picked a client
    expect(r.body.items.every((x: any) => x.state === 'open')).toBe(true);
    expect(r.body.items.some((x: any) => x.username === 'harbour')).toBe(false);
    expect(r.body.items.some((x: any) => x.username === 'door-sync')).toBe(false);
  });

  it('filters by username, name or address text and by state, and sorts by username', async () => {
    const byName = await list(nw, OPS, '?q=sam%20oper');
    expect(byName.body.items.map((x: any) => x.username)).toEqual(['operator']);
    expect(byName.body.total).toBe(1);
    const byIp = await list(nw, OPS, '?q=127.0.0');
    expect(byIp.body.total).toBeGreaterThanOrEqual(2);
    const none = await list(nw, OPS, '?q=nobody-like-this');
    expect(none.body).toMatchObject({ items: [], total: 0 });

    const ended = await list(nw, OPS, '?state=ended');
    expect(ended.body.items.length).toBeGreaterThanOrEqual(1);
    expect(ended.body.items.every((x: any) => x.state !== 'open')).toBe(true);
    expect(rowOf(ended.body.items, 'admin')).toMatchObject({ state: 'ended', current: false });
    const all = await list(nw, OPS, '?state=all');
    expect(all.body.total).toBe(ended.body.total + (await list(nw)).body.total);

    const sorted = await list(nw, OPS, '?state=all&sort=username,desc');
    const names = sorted.body.items.map((x: any) => x.username);
    expect(names).toEqual([...names].sort().reverse());
    const paged = await list(nw, OPS, '?state=all&size=1&page=1&sort=username,asc');
    expect(paged.body).toMatchObject({ page: 1, size: 1, total: all.body.total });
    expect(paged.body.items).toHaveLength(1);
  });

  it('shows an operator session nobody ended as expired once its token lifetime has passed', async () => {
    const extra = await loginWithAgent('auditor');
    await s.db.query(`update sessions set started_at = now() - interval '9 hours' where id = (select max(id) from sessions)`);
    const open = await list(nw, OPS, '?q=auditor');
    expect(open.body.total).toBe(0);
    const ended = await list(nw, OPS, '?q=auditor&state=ended');
    expect(ended.body.items[0]).toMatchObject({ username: 'auditor', state: 'expired', endedAt: null });
    expect(extra).toBeTruthy();
  });

  it('refuses bad queries with violations', async () => {
    const st = await list(nw, OPS, '?state=closed');
    expect(st.status).toBe(400);
    expect(st.body.violations).toEqual([{ field: 'state', message: 'is not one of the allowed values', code: 'value.notAllowed', values: {} }]);
    const so = await list(nw, OPS, '?sort=ip,asc');
    expect(so.status).toBe(400);
    expect(so.body.violations[0].field).toBe('sort');
  });

  it("keeps tenants apart: another client's administrator neither sees nor ends Northwind's sessions", async () => {
    const r = await list(hb, OPS, '?state=all');
    expect(r.status).toBe(200);
    expect(rowOf(r.body.items, 'harbour')).toMatchObject({ current: true });
    expect(r.body.items.some((x: any) => x.username === 'operator')).toBe(false);
    // admin holds grants in both clients, but the session working in Northwind is Northwind's
    expect(r.body.items.some((x: any) => x.username === 'admin' && x.state === 'open')).toBe(false);

    const operatorRow = rowOf((await list(nw)).body.items, 'operator');
    const before = await openSessions();
    const end = await s.call('POST', `${OPS}/end`, { token: hb, body: { ids: [operatorRow.id] } });
    expect(end.status).toBe(404);
    expect(await openSessions()).toBe(before);
    expect((await s.call('GET', '/idp/1.0/me', { token: op })).status).toBe(200);
  });

  it('lists and ends the sessions of every operator of the client: one created there without a role, one whose role comes from a group', async () => {
    // issue 49 found both missing: the list asked for a role granted to the user directly in the client
    const made = await s.call('POST', '/event/manage/operators', {
      token: nw,
      body: { username: 'no-role-yet', name: 'Nora Norole', password: 'Gatehouse1!' },
    });
    expect(made.status).toBe(201);
    const northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
    const grouped = Number(
      (
        await s.db.query<{ id: number }>(
          `insert into users (username, password_hash, name, timezone, selected_client_id) select 'in-a-group', password_hash, 'Gil Grouped', timezone, $1
             from users where username = 'operator' returning id`,
          [northwind],
        )
      ).rows[0].id,
    );
    const group = Number(
      (await s.db.query<{ id: number }>(`insert into operator_groups (client_id, name) values ($1, 'Night desk') returning id`, [northwind])).rows[0].id,
    );
    await s.db.query('insert into operator_group_members (group_id, user_id) values ($1, $2)', [group, grouped]);
    await s.db.query(`insert into operator_group_grants (group_id, client_id, role_id) select $1, $2, id from roles where code = 'operator' limit 1`, [
      group,
      northwind,
    ]);
    const [noRole, inGroup] = [await loginWithAgent('no-role-yet'), await loginWithAgent('in-a-group')];
    const listed = (await list(nw)).body.items;
    expect(rowOf(listed, 'no-role-yet')).toMatchObject({ name: 'Nora Norole', state: 'open' });
    expect(rowOf(listed, 'in-a-group')).toMatchObject({ name: 'Gil Grouped', state: 'open' });
    const harbours = (await list(hb, OPS, '?state=all')).body.items;
    expect(harbours.some((x: any) => x.username === 'no-role-yet' || x.username === 'in-a-group')).toBe(false);
    const end = await s.call('POST', `${OPS}/end`, { token: nw, body: { ids: [rowOf(listed, 'no-role-yet').id, rowOf(listed, 'in-a-group').id] } });
    expect(end.status).toBe(200);
    for (const token of [noRole, inGroup]) expect((await s.call('GET', '/idp/1.0/me', { token })).status).toBe(401);
  });

  it('needs 0.2.4.0 to list and 0.2.4.1 to end', async () => {
    const reception = await s.login('reception');
    expect((await list(reception)).status).toBe(403);
    expect((await list(reception, SVC)).status).toBe(403);
    // the security operator watches sessions but does not end other people's
    expect((await list(op)).status).toBe(200);
    const adminRow = rowOf((await list(nw)).body.items, 'admin');
    const r = await s.call('POST', `${OPS}/end`, { token: op, body: { ids: [adminRow.id] } });
    expect(r.status).toBe(403);
    expect((await s.call('GET', '/idp/1.0/me', { token: nw })).status).toBe(200);
  });

  it('refuses a bad end request with violations and ends nothing', async () => {
    const operatorRow = rowOf((await list(nw)).body.items, 'operator');
    const before = await openSessions();
    for (const bad of [{}, { ids: [] }, { ids: ['x'] }, { ids: [0] }, { ids: [operatorRow.id, -1] }, { ids: operatorRow.id }]) {
      const r = await s.call('POST', `${OPS}/end`, { token: nw, body: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.violations[0].field).toMatch(/^ids/);
    }
    const malformed = await s.call('POST', `${OPS}/end`, { token: nw, raw: '{"ids": [' });
    expect(malformed.status).toBe(400);
    // one unknown id among good ones: all or nothing
    const mixed = await s.call('POST', `${OPS}/end`, { token: nw, body: { ids: [operatorRow.id, 999999] } });
    expect(mixed.status).toBe(404);
    expect(await openSessions()).toBe(before);
    expect((await s.call('GET', '/idp/1.0/me', { token: op })).status).toBe(200);
  });

  it("does not end the caller's own current session (sign out instead), not even in a batch", async () => {
    const rows = (await list(nw)).body.items;
    const mine = rows.find((x: any) => x.current);
    const operatorRow = rowOf(rows, 'operator');
    const before = await openSessions();
    const r = await s.call('POST', `${OPS}/end`, { token: nw, body: { ids: [operatorRow.id, mine.id] } });
    expect(r.status).toBe(409);
    expect(r.body.message).toMatch(/your own current session/);
    expect(await openSessions()).toBe(before);
  });

  it('ends a session: its token is refused at once, the end is audited, and ending it again changes nothing', async () => {
    const operatorRow = rowOf((await list(nw)).body.items, 'operator');
    const r = await s.call('POST', `${OPS}/end`, { token: nw, body: { ids: [operatorRow.id] } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ended: 1, alreadyEnded: 0 });

    const me = await s.call('GET', '/idp/1.0/me', { token: op });
    expect(me.status).toBe(401);
    expect(me.body.message).toBe('JWT-Invalid');

    const ended = rowOf((await list(nw, OPS, '?state=ended&q=operator')).body.items, 'operator');
    expect(ended).toMatchObject({ id: operatorRow.id, state: 'ended', endedBy: 'admin' });
    expect(rowOf((await list(nw)).body.items, 'operator')).toBeUndefined();

    const audit = await s.call('GET', '/event/manage/audit?size=1', { token: nw });
    expect(audit.body.items[0]).toMatchObject({ actor: 'admin', action: 'end', entity: 'operator-session', entityId: String(operatorRow.id) });
    expect(audit.body.items[0].before).toMatchObject({ username: 'operator', state: 'open' });

    const again = await s.call('POST', `${OPS}/end`, { token: nw, body: { ids: [operatorRow.id] } });
    expect(again.body).toEqual({ ended: 0, alreadyEnded: 1 });
    expect((await s.call('GET', '/event/manage/audit?size=1', { token: nw })).body.items[0].entityId).toBe(String(operatorRow.id));
    expect(await s.count(`select 1 from audit_log where entity = 'operator-session' and entity_id = '${operatorRow.id}'`)).toBe(1);
  });
});

describe('ending a session and the real-time connections', () => {
  it("drops the ended session's STOMP connections at once, and only those", async () => {
    const ended = await loginWithAgent('operator');
    const kept = await loginWithAgent('operator');
    const a = await connected(`${s.base}/ws/event`, ended);
    const b = await connected(`${s.base}/ws/event`, kept);
    try {
      const rows = (await list(nw, OPS, '?size=1000')).body.items as any[];
      const target = rows.filter((r) => r.username === 'operator').sort((x, y) => y.id - x.id)[1]; // the older of the two new ones
      expect((await s.call('POST', `${OPS}/end`, { token: nw, body: { ids: [target.id] } })).status).toBe(200);
      await waitFor(() => a.closed, "the ended session's connection closed");
      expect(b.closed).toBe(false);
      // and it cannot come back with that token
      const again = await connected(`${s.base}/ws/event`, ended).catch((e: Error) => e);
      expect(again).toBeInstanceOf(Error);
    } finally {
      await a.client.deactivate({ force: true });
      await b.client.deactivate({ force: true });
    }
  });
});

describe('service account sessions', () => {
  it("lists the client's service accounts' sessions, never operators' nor another client's", async () => {
    const r = await list(nw, SVC);
    expect(r.status).toBe(200);
    expect(r.body.items.map((x: any) => x.username).sort()).toEqual(['door-sync', 'payroll-export']);
    expect(rowOf(r.body.items, 'door-sync')).toMatchObject({
      kind: 'service',
      state: 'open',
      current: false,
      ip: '10.1.0.50',
      name: 'Door sync (integration)',
    });
    const h = await list(hb, SVC);
    expect(h.body.items.map((x: any) => x.username)).toEqual(['nurse-call']);
  });

  it('cannot be signed in to the console, nor given a password by a reset link', async () => {
    const r = await s.call('POST', '/idp/1.0/login', { body: { username: 'door-sync', password: 'Gatehouse1!' } });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Invalid username or password');
    const reset = await s.call('POST', '/idp/1.0/operators/reset-password/init', { body: { username: 'door-sync' } });
    expect(reset.status).toBe(200);
    expect(s.app.resetTokens!.some((t) => t.username === 'door-sync')).toBe(false);
  });

  it("ends a service account's session only through its own screen and privilege", async () => {
    const row = rowOf((await list(nw, SVC)).body.items, 'door-sync');
    expect((await s.call('POST', `${OPS}/end`, { token: nw, body: { ids: [row.id] } })).status).toBe(404);
    const watcher = await s.login('operator');
    expect((await s.call('POST', `${SVC}/end`, { token: watcher, body: { ids: [row.id] } })).status).toBe(403);
    expect((await s.call('POST', `${SVC}/end`, { token: hb, body: { ids: [row.id] } })).status).toBe(404);
    expect(rowOf((await list(nw, SVC)).body.items, 'door-sync')).toBeDefined();

    const r = await s.call('POST', `${SVC}/end`, { token: nw, body: { ids: [row.id] } });
    expect(r.body).toEqual({ ended: 1, alreadyEnded: 0 });
    expect(rowOf((await list(nw, SVC)).body.items, 'door-sync')).toBeUndefined();
    expect(rowOf((await list(nw, SVC, '?state=ended')).body.items, 'door-sync')).toMatchObject({ state: 'ended', endedBy: 'admin' });
    expect(await s.count("select 1 from audit_log where entity = 'service-account-session' and entity_id = $1", [String(row.id)])).toBe(1);
  });
});
