// Issue 27's proof: accounts that belong to more than one client. Generated from Fastify's route table: every mutating
// route says what it touches (config.touches: client, self, account, platform), so a new route cannot slip past; every
// route that touches an account is sent, as a client's administrator (`harbour`, Harbour Health only), requests naming
// an account that also works elsewhere (the platform operator `admin`, a new operator of both demo clients, a service
// account granted in both) and must answer 403 with a sentence, the account's rows unchanged; every route that touches
// the whole installation refuses them too. Then what stays allowed: `harbour` changes an account of Harbour alone, a
// platform operator (or someone administering every client of the account) changes a shared one, and `harbour` removes
// a shared account from Harbour and ends its Harbour sessions only.
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, serviceAccountsResource } from '../../contract';
import { startTestServer, tablesSnapshot, type TestServer } from '../testkit';
import { isOpenRoute, type Touches } from './accountScope';

let s: TestServer;
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PASSWORD = 'A long enough password 1!';
let harbour: string; // harbour, in Harbour Health
let adminHarbour: string; // the platform operator, in Harbour Health
let ids: {
  harbour: number;
  northwind: number;
  admin: number;
  shared: number;
  local: number;
  sharedService: number;
  sharedServiceUser: number;
  hq: { harbour: number; northwind: number };
};
let clientless: number[] = []; // sessions opened before a client was chosen (they work in every client of the account)

type RouteRow = {
  method: string;
  url: string;
  config?: { touches?: Touches; open?: boolean; privileges?: string[]; accounts?: (db: any, req: FastifyRequest) => Promise<number[]> };
};
const routes = (): RouteRow[] => (s.app.routes as RouteRow[]).filter((r) => MUTATING.has(r.method) && r.url !== '/*');

const one = async <T>(sql: string, params: unknown[] = []) => (await s.db.query<T>(sql, params)).rows[0];

/** Everything of an account outside one client: its users row, memberships, platform role, sessions, password history. */
async function accountRows(userId: number): Promise<string> {
  const parts = await Promise.all([
    s.db.query('select * from users where id = $1', [userId]),
    s.db.query('select client_id, role_code, division_id from user_grants where user_id = $1 order by id', [userId]),
    s.db.query('select group_id from operator_group_members where user_id = $1 order by group_id', [userId]),
    s.db.query('select role_code from platform_grants where user_id = $1 order by role_code', [userId]),
    s.db.query('select id, jti, client_id, ended_at, ended_by from sessions where user_id = $1 order by id', [userId]),
    s.db.query('select count(*)::int n from password_history where user_id = $1', [userId]),
    s.db.query('select id, key_id, key_hash, key_revoked_at, name, active from service_accounts where user_id = $1 order by id', [userId]),
  ]);
  return JSON.stringify(parts.map((p) => p.rows));
}

/** Every table, counted (server/testkit.ts): equal before and after means nothing changed anywhere. */
const everything = () => tablesSnapshot(s.db);

/** The shared operator's password now (the tests below change it). */
let sharedPassword = PASSWORD;
/** `username` signed in with `password`, working in the client of `code`. */
async function signInTo(username: string, password: string, code: string): Promise<string> {
  const token = await s.login(username, password);
  const client = await one<{ id: number }>('select id from clients where code = $1', [code]);
  const r = await s.call('PUT', API.meClient, { token, body: { clientId: Number(client!.id) } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.token as string;
}

const fill = (url: string, id: number) => url.replace(/:id\b/g, String(id)).replace(/:(\w+)/g, 'sample');

beforeAll(async () => {
  s = await startTestServer();
  harbour = await s.loginTo('harbour', 'HARBOUR');
  adminHarbour = await s.loginTo('admin', 'HARBOUR');
  const client = async (code: string) => Number((await one<{ id: number }>('select id from clients where code = $1', [code]))!.id);
  const hq = async (c: number) =>
    Number((await one<{ id: number }>('select id from divisions where client_id = $1 and parent_id is null order by id limit 1', [c]))!.id);
  const [h, n] = [await client('HARBOUR'), await client('NORTHWIND')];
  const user = async (u: string) => Number((await one<{ id: number }>('select id from users where username = $1', [u]))!.id);

  // an operator of Harbour alone, made by harbour; and one made in Harbour, then given a role in Northwind too
  const local = await s.call('POST', API.operators, { token: harbour, body: { username: 'harbour.local', name: 'Lee Local', password: PASSWORD } });
  const shared = await s.call('POST', API.operators, { token: adminHarbour, body: { username: 'both.clients', name: 'Bo Both', password: PASSWORD } });
  expect([local.status, shared.status]).toEqual([201, 201]);
  await s.db.query(
    `insert into user_grants (user_id, role_code, client_id, division_id) values ($1, 'security-operator', $2, $3), ($1, 'security-operator', $4, $5)`,
    [shared.body.id, n, await hq(n), h, await hq(h)],
  );
  // a service account of Harbour whose user was granted a role in Northwind as well
  const sa = await s.call('POST', serviceAccountsResource.api, { token: harbour, body: { name: 'Shared integration', role: 'integration' } });
  expect(sa.status, JSON.stringify(sa.body)).toBe(201);
  const saUser = Number((await one<{ user_id: number }>('select user_id from service_accounts where id = $1', [sa.body.id]))!.user_id);
  await s.db.query(`insert into user_grants (user_id, role_code, client_id) values ($1, 'integration', $2)`, [saUser, n]);

  ids = {
    harbour: h,
    northwind: n,
    admin: await user('admin'),
    shared: shared.body.id,
    local: local.body.id,
    sharedService: sa.body.id,
    sharedServiceUser: saUser,
    hq: { harbour: await hq(h), northwind: await hq(n) },
  };
  // sessions that belong to no client: the admin's sign-in before choosing one, and the shared operator's
  const again = await s.login('admin');
  expect((await s.call('PUT', API.meClient, { token: again, body: { clientId: null } })).status).toBe(200);
  // (a single-client sign-in lands in its home client, so the shared operator's is written as one before a choice)
  await s.db.query(
    `insert into sessions (jti, user_id, ip, user_agent, client_id) values (gen_random_uuid()::text, $1, '127.0.0.1', 'accountBoundary', null)`,
    [ids.shared],
  );
  clientless = (
    await s.db.query<{ id: string }>('select id from sessions where user_id = any($1::int[]) and client_id is null and ended_at is null', [
      [ids.admin, ids.shared],
    ])
  ).rows.map((r) => Number(r.id));
  expect(clientless.length).toBeGreaterThanOrEqual(2);
}, 180_000); // a server, six sign-ins and three accounts: slow on a busy 2-core machine
afterAll(async () => {
  await s?.close();
});

describe('the route table says what every mutating route touches', () => {
  it('each mutating route that needs a token declares client, self, account or platform', () => {
    const undeclared = routes().filter((r) => !isOpenRoute(r.url, r.config) && !['client', 'self', 'account', 'platform'].includes(r.config?.touches ?? ''));
    expect(undeclared.map((r) => `${r.method} ${r.url}`)).toEqual([]);
    // the walk is real: the route table holds well over a hundred of them
    expect(routes().length).toBeGreaterThan(150);
  });

  it('the account-level and installation-wide routes are the ones expected', () => {
    const of = (t: Touches) =>
      routes()
        .filter((r) => r.config?.touches === t)
        .map((r) => `${r.method} ${r.url}`);
    expect(of('account')).toEqual(
      expect.arrayContaining([
        `POST ${API.operators}/:id/reset-password`,
        `POST ${API.operators}/:id/disable`,
        `POST ${API.operators}/:id/enable`,
        `POST ${API.operatorSessions}/end`,
        `POST ${API.serviceAccountSessions}/end`,
        `PUT ${serviceAccountsResource.api}/:id`,
        `POST ${serviceAccountsResource.api}/:id/rotate-key`,
        `POST ${serviceAccountsResource.api}/:id/revoke-key`,
      ]),
    );
    expect(of('platform')).toEqual(
      expect.arrayContaining([
        `POST ${API.clients}`,
        `POST ${API.backups}`,
        `DELETE ${API.backups}/:id`,
        `POST ${API.backups}/:id/restore`,
        `POST ${API.backups}/upload`,
      ]),
    );
    // every account route names the accounts it changes, so the shared check can see them
    for (const r of routes().filter((x) => x.config?.touches === 'account')) expect(typeof r.config?.accounts, `${r.method} ${r.url}`).toBe('function');
  });
});

describe('a client administrator and accounts that also work elsewhere', () => {
  it('every account route refuses harbour for each shared account it names (403, a sentence) and changes nothing', async () => {
    const outside = () => [ids.admin, ids.shared, ids.sharedServiceUser];
    const body = { password: PASSWORD, ids: clientless, name: 'Renamed by harbour', role: 'integration' };
    const principal = { userId: 0, clientId: ids.harbour };
    const tried: string[] = [];
    for (const r of routes().filter((x) => x.config?.touches === 'account')) {
      let named = 0;
      for (const id of [ids.admin, ids.shared, ids.sharedService]) {
        if (!r.url.includes(':id') && id !== ids.admin) continue;
        // what the route itself says this request would change
        const fake = { params: r.url.includes(':id') ? { id: String(id) } : {}, body, principal } as unknown as FastifyRequest;
        const accounts = await r.config!.accounts!(s.db, fake);
        const shared = accounts.filter((a) => outside().includes(a));
        if (!shared.length) continue;
        named++;
        const before = await Promise.all(shared.map(accountRows));
        const res = await s.call(r.method, fill(r.url, id), { token: harbour, body });
        expect([`${r.method} ${r.url} #${id}`, res.status], JSON.stringify(res.body)).toEqual([`${r.method} ${r.url} #${id}`, 403]);
        expect(res.body.message).toMatch(/platform operator/);
        expect(await Promise.all(shared.map(accountRows))).toEqual(before);
        tried.push(`${r.method} ${r.url}`);
      }
      expect([`${r.method} ${r.url}`, named > 0]).toEqual([`${r.method} ${r.url}`, true]);
    }
    expect(tried).toEqual(expect.arrayContaining([`POST ${API.operators}/:id/reset-password`, `POST ${API.operators}/:id/disable`]));
  });

  it('every installation-wide route refuses harbour (403, a sentence) and changes no row anywhere', async () => {
    const platform = routes().filter((r) => r.config?.touches === 'platform');
    expect(platform.length).toBeGreaterThanOrEqual(6);
    const before = await everything();
    for (const r of platform) {
      const res = await s.call(r.method, fill(r.url, 1), { token: harbour, body: { name: 'Harbour owns it now', code: 'HARBOUR2', enabled: true } });
      expect([`${r.method} ${r.url}`, res.status]).toEqual([`${r.method} ${r.url}`, 403]);
      expect(typeof res.body.message).toBe('string');
    }
    expect(await everything()).toEqual(before);
  });

  it('the attack of issue 27: harbour cannot reset the platform operator, who still signs in with their own password', async () => {
    const r = await s.call('POST', `${API.operators}/${ids.admin}/reset-password`, { token: harbour, body: { password: PASSWORD } });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('This account is a platform operator: only a platform operator can change it. You can remove it from this client');
    expect(await s.login('admin')).toBeTypeOf('string');
    await expect(s.login('admin', PASSWORD)).rejects.toThrow(/401/);
  });

  it('the operators list says which accounts are shared and why harbour may not change them', async () => {
    const r = await s.call('GET', API.operators, { token: harbour });
    expect(r.status).toBe(200);
    const row = (id: number) => r.body.items.find((x: { id: number }) => x.id === id);
    expect(row(ids.admin)).toMatchObject({ shared: true, accountLocked: expect.stringMatching(/platform operator/) });
    expect(row(ids.shared)).toMatchObject({ shared: true, accountLocked: expect.stringMatching(/^This account also works for other clients/) });
    expect(row(ids.local)).toMatchObject({ shared: false, accountLocked: null });
    // the platform operator may change them all
    const a = await s.call('GET', API.operators, { token: adminHarbour });
    expect(a.body.items.find((x: { id: number }) => x.id === ids.shared)).toMatchObject({ shared: true, accountLocked: null });
    expect(a.body.items.every((x: { accountLocked: unknown }) => x.accountLocked === null)).toBe(true);
  });
});

describe('what stays allowed', () => {
  it('harbour resets, disables and enables an account of Harbour alone', async () => {
    const before = (await one<{ password_hash: string }>('select password_hash from users where id = $1', [ids.local]))!.password_hash;
    expect(
      (await s.call('POST', `${API.operators}/${ids.local}/reset-password`, { token: harbour, body: { password: 'Another long password 2!' } })).status,
    ).toBe(200);
    expect((await one<{ password_hash: string }>('select password_hash from users where id = $1', [ids.local]))!.password_hash).not.toBe(before);
    expect((await s.call('POST', `${API.operators}/${ids.local}/disable`, { token: harbour })).body).toMatchObject({ disabled: true });
    expect((await s.call('POST', `${API.operators}/${ids.local}/enable`, { token: harbour })).body).toMatchObject({ disabled: false });
    expect(await s.login('harbour.local', 'Another long password 2!')).toBeTypeOf('string');
  });

  it('a platform operator resets and disables a shared account', async () => {
    expect(
      (await s.call('POST', `${API.operators}/${ids.shared}/reset-password`, { token: adminHarbour, body: { password: 'Platform set this 3!' } })).status,
    ).toBe(200);
    sharedPassword = 'Platform set this 3!';
    expect(await s.login('both.clients', sharedPassword)).toBeTypeOf('string');
    expect((await s.call('POST', `${API.operators}/${ids.shared}/disable`, { token: adminHarbour })).body).toMatchObject({ disabled: true });
    expect((await s.call('POST', `${API.operators}/${ids.shared}/enable`, { token: adminHarbour })).body).toMatchObject({ disabled: false });
  });

  it('an administrator of every client the account works in may change it, without being a platform operator', async () => {
    await s.call('POST', API.operators, { token: adminHarbour, body: { username: 'two.admin', name: 'Tia Two', password: PASSWORD } });
    const two = Number((await one<{ id: number }>("select id from users where username = 'two.admin'"))!.id);
    await s.db.query(
      `insert into user_grants (user_id, role_code, client_id, division_id) values ($1, 'administrator', $2, $3), ($1, 'administrator', $4, $5)`,
      [two, ids.harbour, ids.hq.harbour, ids.northwind, ids.hq.northwind],
    );
    const token = await signInTo('two.admin', PASSWORD, 'HARBOUR');
    expect((await s.call('POST', `${API.operators}/${ids.shared}/reset-password`, { token, body: { password: 'Two admins set 4!' } })).status).toBe(200);
    sharedPassword = 'Two admins set 4!';
    // but not the platform operator's
    expect((await s.call('POST', `${API.operators}/${ids.admin}/disable`, { token })).status).toBe(403);
  });

  it("harbour ends the shared account's Harbour sessions, and its sessions elsewhere stay open", async () => {
    const inHarbour = await signInTo('both.clients', sharedPassword, 'HARBOUR');
    const inNorthwind = await signInTo('both.clients', sharedPassword, 'NORTHWIND');
    const open = async (client: number) =>
      (await s.db.query<{ id: string }>('select id from sessions where user_id = $1 and client_id = $2 and ended_at is null', [ids.shared, client])).rows.map(
        (r) => Number(r.id),
      );
    const harbourSessions = await open(ids.harbour);
    expect(harbourSessions.length).toBeGreaterThan(0);
    const r = await s.call('POST', `${API.operatorSessions}/end`, { token: harbour, body: { ids: harbourSessions } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await open(ids.harbour)).toEqual([]);
    expect((await open(ids.northwind)).length).toBeGreaterThan(0);
    expect((await s.call('GET', API.me, { token: inHarbour })).status).toBe(401);
    expect((await s.call('GET', API.me, { token: inNorthwind })).status).toBe(200);
  });

  it('harbour removes the shared account from Harbour: its roles, groups and sessions there go, Northwind keeps it', async () => {
    const group = await s.call('POST', API.operatorGroups, { token: harbour, body: { name: 'Night shift', members: [ids.shared] } });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    const inHarbour = await signInTo('both.clients', sharedPassword, 'HARBOUR');
    const inNorthwind = await signInTo('both.clients', sharedPassword, 'NORTHWIND');
    const hashBefore = (await one<{ password_hash: string; disabled: boolean }>('select password_hash, disabled from users where id = $1', [ids.shared]))!;
    const r = await s.call('POST', `${API.operators}/${ids.shared}/remove`, { token: harbour });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ removed: true });
    expect(r.body.sessionsEnded).toBeGreaterThan(0);
    const reach = await s.db.query<{ client_id: number }>('select client_id from tenant_operators where id = $1', [ids.shared]);
    expect(reach.rows.map((x) => Number(x.client_id))).toEqual([ids.northwind]);
    expect(await one('select password_hash, disabled from users where id = $1', [ids.shared])).toEqual(hashBefore);
    expect((await s.call('GET', API.me, { token: inHarbour })).status).toBe(401);
    expect((await s.call('GET', API.me, { token: inNorthwind })).status).toBe(200);
    // gone from Harbour's list; an account of Harbour alone is disabled, not removed
    const list = await s.call('GET', API.operators, { token: harbour });
    expect(list.body.items.some((x: { id: number }) => x.id === ids.shared)).toBe(false);
    const alone = await s.call('POST', `${API.operators}/${ids.local}/remove`, { token: harbour });
    expect([alone.status, alone.body.message]).toEqual([409, 'This account works for this client alone: disable it instead']);
  });
});
