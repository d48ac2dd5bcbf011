// IAM mode with OpenID Connect (issue 49), against a real oidc-provider on a loopback port: the round trip a browser
// makes (Gatehouse's start, the provider's sign-in form, the callback, the ticket exchanged for a session), the
// just-in-time account and its roles from the groups, RP-initiated logout; and the attacks, each a 4xx in words that
// stores nothing and redirects nowhere.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API } from '../../../contract';
import { startTestServer, tablesSnapshot, type TestServer } from '../../testkit';
import { Browser } from './testBrowser';
import { startTestIdp, type TestIdp } from './testIdp';

let s: TestServer;
let idp: TestIdp;
const ENV_KEYS = ['IAM_OIDC_ISSUER', 'IAM_OIDC_CLIENT_ID', 'IAM_OIDC_CLIENT_SECRET', 'IAM_OIDC_ROLE_MAP', 'IAM_OIDC_NAME'];
const ROLE_MAP = 'gatehouse-operators=NORTHWIND:security-operator,gatehouse-auditors=NORTHWIND:auditor,harbour-admins=HARBOUR:administrator';

/** From Gatehouse's start to the provider's redirect back to the callback (not followed): the callback URL. */
async function throughProvider(b: Browser, login: string, start = `${API.oidcStart}?provider=env`): Promise<string> {
  let res = await b.go(s.base + start);
  expect(res.status).toBe(302);
  let url = new URL(res.headers.get('location')!, s.base).href;
  for (let hops = 0; hops < 12; hops++) {
    if (url.startsWith(s.base)) return url;
    res = await b.go(url);
    if (res.status === 200 && /\/interaction\//.test(url)) {
      res = await b.go(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }),
      });
    }
    expect([302, 303], `${url}: ${res.status} ${await res.clone().text()}`).toContain(res.status);
    url = new URL(res.headers.get('location')!, url).href;
  }
  throw new Error('the provider never sent the browser back');
}

/** The whole sign-in: the callback's ticket exchanged for a session. */
async function signIn(b: Browser, login: string) {
  const callback = await throughProvider(b, login);
  const back = await b.go(callback);
  expect(back.status, await back.clone().text()).toBe(302);
  const ticket = /^\/login#iam=([A-Za-z0-9_-]+)$/.exec(back.headers.get('location')!)![1];
  const res = await b.go(s.base + API.iamExchange, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticket }) });
  return { status: res.status, body: await res.json(), ticket };
}

const userOf = async (username: string) =>
  (await s.db.query<{ id: number; disabled: boolean }>('select id, disabled from users where username = $1', [username])).rows[0] ?? null;

beforeAll(async () => {
  s = await startTestServer();
  idp = await startTestIdp({
    redirectUris: [`${s.base}${API.oidcCallback}`],
    postLogoutRedirectUris: [`${s.base}/login`],
    people: {
      alice: { name: 'Alice Ng', email: 'alice@corp.example', preferred_username: 'alice', groups: ['gatehouse-operators', 'unrelated'] },
      nobody: { name: 'No Body', email: 'nobody@corp.example', preferred_username: 'nobody', groups: ['sales'] },
      // a provider's person whose name is a local account's: linked by subject, never by username
      admin: { name: 'Not The Admin', preferred_username: 'admin', groups: ['gatehouse-auditors'] },
      crowd: { preferred_username: 'crowd', groups: Array.from({ length: 100_000 }, (_, i) => `g${i}`) },
    },
  });
  Object.assign(process.env, idp.env(ROLE_MAP));
}, 60_000);
afterAll(async () => {
  for (const k of ENV_KEYS) delete process.env[k];
  await idp?.close();
  await s?.close();
});
beforeEach(() => idp.tamper(null));

describe('OpenID Connect sign-in (issue 49)', () => {
  it('offers the provider on the sign-in page', async () => {
    const r = await s.call('GET', API.iamProviders);
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ key: 'env', kind: 'oidc', name: 'Test IdP', start: `${API.oidcStart}?provider=env` }]);
  });

  it('signs a new person in: an operator account made just in time with the roles of their groups, a session that says OIDC', async () => {
    const b = new Browser();
    const r = await signIn(b, 'alice');
    expect(r.status).toBe(200);
    expect(r.body.user.username).toBe('alice');
    expect(r.body.user.roles).toEqual(['security-operator']);
    expect(r.body.privileges.priviledges.length).toBeGreaterThan(0);
    // the token works, and the session says how it was signed in
    const me = await s.call('GET', API.me, { token: r.body.token });
    expect(me.status).toBe(200);
    const session = await s.db.query<{ sign_in_method: string; sign_in_provider: string }>(
      'select sign_in_method, sign_in_provider from sessions s join users u on u.id = s.user_id where u.username = $1',
      ['alice'],
    );
    expect(session.rows).toEqual([{ sign_in_method: 'oidc', sign_in_provider: 'env' }]);
    // made in the audit trail of Northwind
    expect(await s.count("select 1 from audit_log where entity = 'operator' and action = 'create' and actor = 'Test IdP'")).toBe(1);
    // the ticket is used once
    const again = await b.go(s.base + API.iamExchange, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ticket: r.ticket }),
    });
    expect(again.status).toBe(400);
  });

  it('updates the account at each sign-in: new groups, new roles; the same account, never a second one', async () => {
    idp.people.alice.groups = ['gatehouse-auditors', 'harbour-admins'];
    idp.people.alice.name = 'Alice Ng-Smith';
    const r = await signIn(new Browser(), 'alice');
    expect(r.status).toBe(200);
    expect(await s.count("select 1 from users where username like 'alice%'")).toBe(1);
    const grants = await s.db.query<{ code: string; role_code: string }>(
      'select c.code, g.role_code from user_grants g join clients c on c.id = g.client_id join users u on u.id = g.user_id where u.username = $1 order by c.code',
      ['alice'],
    );
    expect(grants.rows).toEqual([
      { code: 'HARBOUR', role_code: 'administrator' },
      { code: 'NORTHWIND', role_code: 'auditor' },
    ]);
    expect(r.body.user.name).toBe('Alice Ng-Smith');
    expect(r.body.user.multiTenancyEnabled).toBe(true);
    idp.people.alice.groups = ['gatehouse-operators'];
  });

  it('never takes over a local account of the same name', async () => {
    const before = await userOf('admin');
    const r = await signIn(new Browser(), 'admin');
    expect(r.status).toBe(200);
    expect(r.body.user.username).toBe('admin.2');
    expect(r.body.user.id).not.toBe(before.id);
    expect(r.body.user.roles).toEqual(['auditor']);
  });

  it('tells a person in no mapped group so, in words, and makes nothing', async () => {
    const b = new Browser();
    const callback = await throughProvider(b, 'nobody');
    const snapshot = await tablesSnapshot(s.db);
    const res = await b.go(callback, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain('You are in none of the groups of your organisation that give access to Gatehouse');
    expect(res.headers.get('location')).toBeNull();
    expect(await tablesSnapshot(s.db)).toBe(snapshot);
    expect(await userOf('nobody')).toBeNull();
  });

  it('takes away what the groups gave, and ends the sessions, when a known person is in no mapped group any more', async () => {
    const b = new Browser();
    const first = await signIn(b, 'alice');
    expect(first.status).toBe(200);
    idp.people.alice.groups = ['sales'];
    const callback = await throughProvider(new Browser(), 'alice');
    const res = await new Browser().go(callback);
    expect(res.status).toBe(400); // another browser's callback: refused before anything
    const again = await throughProvider(b, 'alice');
    const refused = await b.go(again);
    expect(refused.status).toBe(403);
    expect((await s.call('GET', API.me, { token: first.body.token })).status).toBe(401);
    expect(await s.count("select 1 from user_grants g join users u on u.id = g.user_id where u.username = 'alice'")).toBe(0);
    idp.people.alice.groups = ['gatehouse-operators'];
  });

  it('signs out of the provider too (RP-initiated logout), back to our sign-in page', async () => {
    const r = await signIn(new Browser(), 'alice');
    const out = await s.call('POST', API.logout, { token: r.body.token });
    expect(out.status).toBe(200);
    const url = new URL(out.body.providerLogoutUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${s.base}/login`);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    // a password session has no provider to sign out of
    const pw = await s.call('POST', API.logout, { token: await s.login('operator') });
    expect(pw.body).toEqual({ ok: true });
  });
});

describe('OpenID Connect attacks (issue 49): a 4xx in words, nothing stored, no open redirect', () => {
  /** The callback of a fresh sign-in, answered with the ID token as `tamper` made it: its status and words. */
  async function refusedWith(tamper: (c: Record<string, unknown>) => Record<string, unknown>, opts?: { foreignKey?: boolean }) {
    const b = new Browser();
    const callback = await throughProvider(b, 'alice');
    idp.tamper(tamper, opts);
    const snapshot = await tablesSnapshot(s.db);
    const res = await b.go(callback);
    const body = await res.json();
    expect(await tablesSnapshot(s.db)).toBe(snapshot);
    expect(res.headers.get('location')).toBeNull();
    return { status: res.status, body };
  }
  const tokenRefusal = (r: { status: number; body: any }, claim: RegExp) => {
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("The identity provider's answer was refused: it failed Gatehouse's checks");
    expect(r.body.violations[0].field).toBe('id_token');
    expect(r.body.violations[0].message).toMatch(claim);
  };

  it('refuses an ID token of another issuer', async () => tokenRefusal(await refusedWith((c) => ({ ...c, iss: 'http://127.0.0.1:1/evil' })), /iss/));
  it('refuses an ID token for another audience', async () => tokenRefusal(await refusedWith((c) => ({ ...c, aud: 'someone-else' })), /aud/));
  it('refuses an expired ID token', async () =>
    tokenRefusal(await refusedWith((c) => ({ ...c, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })), /exp/));
  it("refuses an ID token whose nonce is another sign-in's (a replayed token)", async () =>
    tokenRefusal(await refusedWith((c) => ({ ...c, nonce: 'a-nonce-of-another-sign-in' })), /nonce/));
  it("refuses an ID token signed by a key that is not the provider's", async () =>
    tokenRefusal(await refusedWith((c) => c, { foreignKey: true }), /signature|key/i));

  it('refuses a replayed callback (the state used once), a forged state and a missing one', async () => {
    const b = new Browser();
    const callback = await throughProvider(b, 'alice');
    expect((await b.go(callback)).status).toBe(302);
    const snapshot = await tablesSnapshot(s.db);
    const replay = await b.go(callback);
    expect(replay.status).toBe(400);
    expect((await replay.json()).message).toBe('This sign-in is unknown, was already used or has expired: start it again from the sign-in page');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value');
    const f = await b.go(forged.href);
    expect(f.status).toBe(400);
    expect((await f.json()).violations[0].field).toBe('state');
    forged.searchParams.delete('state');
    const missing = await b.go(forged.href, { headers: { accept: 'text/html' } });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('The sign-in came back without its state');
    expect(await tablesSnapshot(s.db)).toBe(snapshot);
  });

  it('refuses a callback in a browser that did not start the sign-in (login CSRF)', async () => {
    const callback = await throughProvider(new Browser(), 'alice');
    const snapshot = await tablesSnapshot(s.db);
    const res = await new Browser().go(callback);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('This sign-in was started in another browser: start it again from the sign-in page');
    expect(await tablesSnapshot(s.db)).toBe(snapshot);
  });

  it('refuses a return address that is not a page of this console, and an unknown provider, without sending the browser anywhere', async () => {
    const b = new Browser();
    const snapshot = await tablesSnapshot(s.db);
    for (const ret of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/login?redirect=//evil.example']) {
      const res = await b.go(`${s.base}${API.oidcStart}?provider=env&return=${encodeURIComponent(ret)}`);
      expect(res.status, ret).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect((await res.json()).violations).toEqual([{ field: 'return', message: 'is not a path of this console', code: 'iam.isNotConsolePath', values: {} }]);
    }
    const unknown = await b.go(`${s.base}${API.oidcStart}?provider=elsewhere`);
    expect(unknown.status).toBe(404);
    expect(await tablesSnapshot(s.db)).toBe(snapshot);
  });

  it('goes back to the console page the sign-in started from, handed over with the session (never followed by the server)', async () => {
    const b = new Browser();
    const callback = await throughProvider(b, 'alice', `${API.oidcStart}?provider=env&return=${encodeURIComponent('/monitor/alarms?x=1')}`);
    const back = await b.go(callback);
    expect(back.headers.get('location')).toMatch(/^\/login#iam=/);
    const ticket = back.headers.get('location')!.split('=')[1];
    const res = await b.go(s.base + API.iamExchange, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticket }) });
    expect((await res.json()).returnTo).toBe('/monitor/alarms?x=1');
  });

  it('refuses a group claim of 100,000 entries', async () => {
    const b = new Browser();
    const callback = await throughProvider(b, 'crowd');
    const snapshot = await tablesSnapshot(s.db);
    const res = await b.go(callback);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.message).toBe('The identity provider sent 100000 groups; at most 1000 are read, so the sign-in was refused');
    expect(body.violations[0].field).toBe('groups');
    expect(await tablesSnapshot(s.db)).toBe(snapshot);
  });

  it('says a refusal with values in Chinese on its page by its key and values, never by parsing the English (issue 48)', async () => {
    const zh = { accept: 'text/html', 'accept-language': 'zh-CN,zh;q=0.9' };
    const b = new Browser();
    const res = await b.go(await throughProvider(b, 'crowd'), { headers: zh });
    expect(res.status).toBe(400);
    const page = await res.text();
    expect(page).toContain('<html lang="zh-CN">');
    expect(page).toContain('身份提供方发送了 100000 个组；最多读取 1000 个，因此登录被拒绝');
    const n = new Browser();
    const none = await (await n.go(await throughProvider(n, 'nobody'), { headers: zh })).text();
    expect(none).toContain('您不在贵组织任何可访问 Gatehouse 的组中');
    // a fixed refusal, by its key too (it was looked up by its English, and a keyed one fell back to English)
    const o = new Browser();
    const callback = new URL(await throughProvider(o, 'alice'));
    callback.searchParams.delete('state');
    const missing = await (await o.go(callback.href, { headers: zh })).text();
    expect(missing).toContain('<html lang="zh-CN">');
    expect(missing).toContain('登录返回时缺少状态参数：请从登录页面重新开始');
    const json = await (await o.go(callback.href)).json();
    expect(json).toMatchObject({ code: 'iam.noState', violations: [{ field: 'state', code: 'iam.isMissing' }] });
  });

  it('refuses an exchange with a forged ticket, and one of another browser', async () => {
    const forged = await s.call('POST', API.iamExchange, { body: { ticket: 'A'.repeat(43) } });
    expect(forged.status).toBe(400);
    expect(forged.body.violations[0].field).toBe('ticket');
    const b = new Browser();
    const callback = await throughProvider(b, 'alice');
    const back = await b.go(callback);
    const ticket = back.headers.get('location')!.split('=')[1];
    const stolen = await s.call('POST', API.iamExchange, { body: { ticket } });
    expect(stolen.status).toBe(400);
  });
});
