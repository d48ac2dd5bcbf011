// A client's own identity providers (issue 49): the Manage screen's resource on the server — its own privilege codes,
// the client secret sealed at rest and never answered, every change audited, another client's provider a 404 — and a
// sign-in through one (a real oidc-provider on a loopback port) that grants in that client only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, PRIV, identityProvidersResource } from '../../../contract';
import { startTestServer, tablesSnapshot, type TestServer } from '../../testkit';
import { open } from './sealed';
import { Browser, throughOidcProvider } from './testBrowser';
import { startTestIdp, type TestIdp } from './testIdp';

let s: TestServer;
let idp: TestIdp;
let admin: string;
let harbour: string;
const base = identityProvidersResource.api;

beforeAll(async () => {
  s = await startTestServer();
  idp = await startTestIdp({
    redirectUris: [`${s.base}${API.oidcCallback}`],
    people: {
      // her groups name a Harbour role too: a Northwind provider grants in Northwind alone
      carol: { name: 'Carol Ode', email: 'carol@northwind.example', preferred_username: 'carol', memberOf: ['nw-ops', 'harbour-admins'] },
      dan: { preferred_username: 'dan', groups: ['nw-ops'] },
    },
  });
  admin = await s.loginTo('admin', 'NORTHWIND');
  harbour = await s.login('harbour');
}, 180_000);
afterAll(async () => {
  await idp?.close();
  await s?.close();
});

const oidcRow = (over: Record<string, unknown> = {}) => ({
  name: 'Northwind Entra',
  kind: 'oidc',
  active: true,
  issuer: idp.issuer,
  oidcClientId: idp.clientId,
  clientSecret: idp.clientSecret,
  groupsAttribute: 'memberOf',
  roleMap: 'nw-ops=security-operator\nharbour-admins=administrator',
  ...over,
});

describe('identity providers on the Manage screen (issue 49)', () => {
  let id: number;

  it('has privilege codes of its own', () => {
    expect(identityProvidersResource.privileges).toMatchObject({ view: '0.3.9.0', add: '0.3.9.1', edit: '0.3.9.2', delete: '0.3.9.3' });
    expect(PRIV.identityProviders.view).toBe('0.3.9.0');
  });

  it('adds a provider: the secret is sealed at rest, never answered, and not in the audit trail', async () => {
    const r = await s.call('POST', base, { token: admin, body: oidcRow() });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    id = r.body.id;
    expect(r.body).not.toHaveProperty('clientSecret');
    expect(JSON.stringify(r.body)).not.toContain(idp.clientSecret);
    const stored = (
      await s.db.query<{ client_secret: string; client_id: number }>('select client_secret, client_id from identity_providers where id = $1', [id])
    ).rows[0];
    expect(stored.client_secret).toMatch(/^v1\./);
    expect(stored.client_secret).not.toContain(idp.clientSecret);
    expect(await open(s.db, stored.client_secret, `identity_providers.client_secret:${stored.client_id}`)).toBe(idp.clientSecret);
    // sealed for this client: moved to another client's row it opens nothing
    expect(await open(s.db, stored.client_secret, `identity_providers.client_secret:${Number(stored.client_id) + 1}`)).toBeNull();
    const got = await s.call('GET', `${base}/${id}`, { token: admin });
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(idp.clientSecret);
    const list = await s.call('GET', base, { token: admin });
    expect(JSON.stringify(list.body)).not.toContain(idp.clientSecret);
    const audit = await s.db.query<{ after: unknown }>("select after from audit_log where entity = $1 and entity_id = $2 and action = 'create'", [
      'identity provider',
      String(id),
    ]);
    expect(audit.rows.length).toBe(1);
    expect(JSON.stringify(audit.rows)).not.toContain(idp.clientSecret);
  });

  it('keeps the stored secret when an edit leaves it empty, and audits the change', async () => {
    const before = (await s.db.query<{ client_secret: string }>('select client_secret from identity_providers where id = $1', [id])).rows[0].client_secret;
    const r = await s.call('PUT', `${base}/${id}`, { token: admin, body: { ...oidcRow({ name: 'Northwind SSO' }), clientSecret: null } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const after = (await s.db.query<{ client_secret: string; name: string }>('select client_secret, name from identity_providers where id = $1', [id])).rows[0];
    expect(after).toEqual({ client_secret: before, name: 'Northwind SSO' });
    expect(await s.count("select 1 from audit_log where entity = 'identity provider' and entity_id = $1 and action = 'update'", [String(id)])).toBe(1);
  });

  it('refuses a role map naming a role the client does not have, or an issuer that is not a URL, naming the field', async () => {
    const snap = await tablesSnapshot(s.db);
    const bad = await s.call('POST', base, { token: admin, body: oidcRow({ name: 'Other', roleMap: 'x=no-such-role' }) });
    expect(bad.status).toBe(400);
    expect(bad.body.violations).toEqual([expect.objectContaining({ field: 'roleMap' })]);
    const notPairs = await s.call('POST', base, { token: admin, body: oidcRow({ name: 'Other', roleMap: 'just words' }) });
    expect(notPairs.body.violations).toEqual([expect.objectContaining({ field: 'roleMap' })]);
    const issuer = await s.call('POST', base, { token: admin, body: oidcRow({ name: 'Other', issuer: 'not a url' }) });
    expect(issuer.status).toBe(400);
    expect(issuer.body.violations).toEqual([expect.objectContaining({ field: 'issuer' })]);
    const noClient = await s.call('POST', base, { token: admin, body: oidcRow({ name: 'Other', oidcClientId: null }) });
    expect(noClient.body.violations).toEqual([expect.objectContaining({ field: 'oidcClientId' })]);
    expect(await tablesSnapshot(s.db)).toBe(snap);
  });

  it('is another client’s business: Harbour’s administrator gets 404 for it, and a list without it', async () => {
    expect((await s.call('GET', `${base}/${id}`, { token: harbour })).status).toBe(404);
    expect((await s.call('PUT', `${base}/${id}`, { token: harbour, body: oidcRow({ name: 'Taken' }) })).status).toBe(404);
    expect((await s.call('DELETE', `${base}/${id}`, { token: harbour })).status).toBe(404);
    const list = await s.call('GET', base, { token: harbour });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain('Northwind SSO');
  });

  it('is refused to an operator without the code', async () => {
    const operator = await s.login('operator');
    expect((await s.call('GET', base, { token: operator })).status).toBe(403);
  });

  it('is offered on the sign-in page of its client only', async () => {
    const nw = await s.call('GET', `${API.iamProviders}?client=NORTHWIND`);
    expect(nw.body).toEqual([{ key: `idp-${id}`, kind: 'oidc', name: 'Northwind SSO', start: `${API.oidcStart}?provider=idp-${id}` }]);
    expect((await s.call('GET', `${API.iamProviders}?client=HARBOUR`)).body).toEqual([]);
    expect((await s.call('GET', API.iamProviders)).body).toEqual([]);
  });

  it('signs a person in through it, with roles in its own client only (their Harbour group gives nothing there)', async () => {
    const b = new Browser();
    const callback = await throughOidcProvider(b, s.base, `${API.oidcStart}?provider=idp-${id}`, 'carol');
    const back = await b.go(callback);
    expect(back.status, await back.clone().text()).toBe(302);
    const ticket = /^\/login#iam=([A-Za-z0-9_-]+)$/.exec(back.headers.get('location')!)![1];
    const res = await b.go(s.base + API.iamExchange, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticket }) });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.user.username).toBe('carol');
    const grants = await s.db.query<{ code: string; role_code: string }>(
      'select c.code, g.role_code from user_grants g join clients c on c.id = g.client_id join users u on u.id = g.user_id where u.username = $1 order by 1, 2',
      ['carol'],
    );
    expect(grants.rows).toEqual([
      { code: 'NORTHWIND', role_code: 'administrator' },
      { code: 'NORTHWIND', role_code: 'security-operator' },
    ]);
    const session = await s.db.query('select sign_in_method, sign_in_provider from sessions s join users u on u.id = s.user_id where u.username = $1', [
      'carol',
    ]);
    expect(session.rows).toEqual([{ sign_in_method: 'oidc', sign_in_provider: `idp-${id}` }]);
  });

  it('switched off, it is neither offered nor started', async () => {
    expect((await s.call('PUT', `${base}/${id}`, { token: admin, body: oidcRow({ name: 'Northwind SSO', active: false }) })).status).toBe(200);
    expect((await s.call('GET', `${API.iamProviders}?client=NORTHWIND`)).body).toEqual([]);
    const b = new Browser();
    expect((await b.go(`${s.base}${API.oidcStart}?provider=idp-${id}`)).status).toBe(404);
  });
});
