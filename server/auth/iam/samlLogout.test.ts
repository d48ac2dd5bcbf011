// SAML 2.0 single logout, signed AuthnRequests and encrypted assertions (issue 49), against the repository's SAML IdP
// on a loopback port (./testSamlIdp.ts), which learns Gatehouse's keys and single logout service from its metadata as
// a real IdP does. Signed requests: the IdP takes a request signed by Gatehouse's key and refuses one whose signature
// was tampered with or that is not signed. Encrypted assertions: one encrypted for Gatehouse's key signs in, one
// encrypted for another key is refused in words, and a provider that must encrypt has a plain one refused. Single
// logout: Gatehouse's sign-out sends the browser to the IdP with a LogoutRequest and takes its LogoutResponse once; the
// IdP's LogoutRequest ends that person's sessions of that provider (audited) and is answered; an unsigned, forged,
// foreign or replayed one ends nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, identityProvidersResource } from '../../../contract';
import { startTestServer, type TestServer } from '../../testkit';
import { Browser } from './testBrowser';
import { samlProviderBody, startTestSamlIdp, type TestSamlIdp } from './testSamlIdp';

let s: TestServer;
let idp: TestSamlIdp;
let admin: string;
let id: number;
let key: string;
const provider = () =>
  samlProviderBody(idp, { sloUrl: idp.ssoUrl.replace('/sso', '/slo'), signRequests: true, encryptAssertions: false, groupsAttribute: 'groups' });
const edit = async (patch: Record<string, unknown>) => {
  const r = await s.call('PUT', `${identityProvidersResource.api}/${id}`, { token: admin, body: { ...provider(), ...patch } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
};

beforeAll(async () => {
  s = await startTestServer();
  idp = await startTestSamlIdp({
    people: {
      maria: { subject: 'maria@harbour.example', displayName: 'Maria Lopes', uid: 'maria', groups: ['hh-security'] },
      tomas: { subject: 'tomas@harbour.example', displayName: 'Tomas Berg', uid: 'tomas', groups: ['hh-security'] },
    },
  });
  admin = await s.login('harbour');
  const r = await s.call('POST', identityProvidersResource.api, { token: admin, body: provider() });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  id = Number(r.body.id);
  key = `idp-${id}`;
}, 180_000);
afterAll(async () => {
  await idp?.close();
  await s?.close();
});
beforeEach(async () => {
  idp.requireSignedRequests(true);
  idp.encryptFor(null);
  idp.foreignKey(false);
});

const metadataUrl = () => `${s.base}${API.samlMetadata}?provider=${key}`;
/** Gatehouse's start, then the IdP (as a browser follows the redirect), signing `login` in. */
async function atIdp(b: Browser, login: string, change?: (url: URL) => void) {
  const start = await b.go(`${s.base}${API.samlStart}?provider=${key}`);
  expect(start.status, await start.clone().text()).toBe(302);
  const location = start.headers.get('location')!;
  const at = new URL(location);
  change?.(at);
  // `login` goes last, outside what is signed; the rest of the query as Gatehouse wrote it
  const href = `${change ? at.href : location}&login=${login}`;
  return b.go(href);
}
async function signIn(b: Browser, login: string): Promise<{ token: string } & Response> {
  const page = await (await atIdp(b, login)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  const back = await post(b, `${s.base}${API.samlAcs}`, { SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') });
  if (back.status !== 302) return Object.assign(back, { token: '' });
  const ticket = /#iam=([A-Za-z0-9_-]+)$/.exec(back.headers.get('location')!)![1];
  const res = await b.go(s.base + API.iamExchange, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticket }) });
  const body = await res.clone().json();
  return Object.assign(res, { token: body.token as string });
}
const post = (b: Browser, url: string, form: Record<string, string>, accept = 'application/json') =>
  b.go(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept }, body: new URLSearchParams(form).toString() });
const formOf = (html: string) => ({
  action: /action="([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&'),
  fields: Object.fromEntries([...html.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2].replace(/&amp;/g, '&')])),
});
const open = async (token: string) => (await s.call('GET', API.me, { token })).status === 200;
const accounts = () => s.count("select 1 from iam_accounts where provider like 'idp-%'");

describe('SAML 2.0: Gatehouse as a service provider with keys (issue 49)', () => {
  it('publishes its signing and encryption certificates and its single logout service in the metadata', async () => {
    const xml = await (await fetch(metadataUrl())).text();
    expect(xml).toContain('AuthnRequestsSigned="true"');
    expect(xml).toMatch(/<KeyDescriptor use="signing">[\s\S]*<ds:X509Certificate>MII/);
    expect(xml).toMatch(/<KeyDescriptor use="encryption">[\s\S]*<ds:X509Certificate>MII/);
    expect(xml).toContain(`<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${s.base}${API.samlSlo}?provider=${key}"`);
    // the private key is kept sealed, never as PEM, and the provider's answers never show it
    const stored = (await s.db.query<{ value: string }>("select value from server_secrets where name = 'saml-sp-keys'")).rows[0].value;
    expect(stored).not.toContain('PRIVATE KEY');
    const row = await s.call('GET', `${identityProvidersResource.api}/${id}`, { token: admin });
    expect(JSON.stringify(row.body)).not.toContain('PRIVATE KEY');
    expect(row.body).toMatchObject({ signRequests: true, encryptAssertions: false, sloUrl: idp.ssoUrl.replace('/sso', '/slo') });
  });

  it('signs its AuthnRequest: the IdP takes it, and refuses it with the signature tampered with, or unsigned', async () => {
    expect((await signIn(new Browser(), 'maria')).status).toBe(200);
    const tampered = await atIdp(new Browser(), 'maria', (u) => {
      const sig = u.searchParams.get('Signature')!;
      u.searchParams.set('Signature', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    });
    expect(tampered.status).toBe(400);
    expect(await tampered.text()).toMatch(/not signed by the service provider's key/);
    const otherRelay = await atIdp(new Browser(), 'maria', (u) => u.searchParams.set('RelayState', 'x'.repeat(43)));
    expect(otherRelay.status).toBe(400);
    await edit({ signRequests: false });
    try {
      expect(await (await fetch(metadataUrl())).text()).not.toContain('use="signing"');
      const unsigned = await atIdp(new Browser(), 'maria');
      expect(unsigned.status).toBe(400);
    } finally {
      await edit({});
    }
  });

  it('opens an assertion encrypted for its key; refuses one encrypted for another key in words, making nothing', async () => {
    idp.encryptFor('sp');
    const b = new Browser();
    const ok = await signIn(b, 'maria');
    expect(ok.status).toBe(200);
    expect(Buffer.from(idp.lastResponse!.SAMLResponse, 'base64').toString()).toContain('EncryptedAssertion');
    idp.encryptFor('stranger');
    const before = await accounts();
    const refused = await signIn(new Browser(), 'tomas');
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body.message).toBe("The identity provider's answer was refused: it failed Gatehouse's checks");
    expect(body.violations[0]).toMatchObject({ field: 'SAMLResponse', message: expect.stringMatching(/does not open with Gatehouse's key/) });
    expect(await accounts()).toBe(before);
  });

  it('refuses a plain assertion where the provider must encrypt, and takes an encrypted one', async () => {
    await edit({ encryptAssertions: true });
    try {
      const plain = await signIn(new Browser(), 'tomas');
      expect(plain.status).toBe(400);
      expect((await plain.json()).violations[0].message).toMatch(/was not encrypted/);
      idp.encryptFor('sp');
      expect((await signIn(new Browser(), 'tomas')).status).toBe(200);
    } finally {
      await edit({});
    }
  });
});

describe('SAML 2.0 single logout (issue 49)', () => {
  it("Gatehouse's sign-out ends its session and the IdP's, by a signed LogoutRequest whose answer is taken once", async () => {
    const b = new Browser();
    const { token } = await signIn(b, 'maria');
    expect(idp.sessions.has('maria@harbour.example')).toBe(true);
    const out = await s.call('POST', API.logout, { token });
    expect(out.status).toBe(200);
    expect(await open(token)).toBe(false);
    const url = new URL(out.body.providerLogoutUrl);
    expect(url.origin + url.pathname).toBe(idp.ssoUrl.replace('/sso', '/slo'));
    expect(url.searchParams.get('Signature')).toBeTruthy();
    // the browser goes there; the IdP ends its session and posts its LogoutResponse to our single logout service
    const page = await b.go(url.href);
    expect(page.status).toBe(200);
    expect(idp.logouts.requests.at(-1)).toMatchObject({ subject: 'maria@harbour.example', signed: true });
    expect(idp.sessions.has('maria@harbour.example')).toBe(false);
    const form = formOf(await page.text());
    expect(form.action).toBe(`${s.base}${API.samlSlo}?provider=${key}`);
    const back = await post(b, form.action, form.fields);
    expect(back.status, await back.clone().text()).toBe(302);
    expect(back.headers.get('location')).toBe('/login');
    // the same answer again answers no request of ours
    const again = await post(b, form.action, form.fields);
    expect(again.status).toBe(400);
    expect((await again.json()).violations[0]).toMatchObject({ field: 'SAMLResponse', message: expect.stringMatching(/InResponseTo/) });
  });

  it('a LogoutResponse signed by another key is refused in words', async () => {
    const b = new Browser();
    const { token } = await signIn(b, 'maria');
    const out = await s.call('POST', API.logout, { token });
    idp.foreignKey(true);
    const form = formOf(await (await b.go(out.body.providerLogoutUrl)).text());
    const back = await post(b, form.action, form.fields);
    expect(back.status).toBe(400);
    expect((await back.json()).violations[0]).toMatchObject({ field: 'SAMLResponse', message: expect.stringMatching(/signature/i) });
  });

  it('where the provider has no single logout address, the sign-out ends the Gatehouse session only', async () => {
    await edit({ sloUrl: null });
    try {
      const { token } = await signIn(new Browser(), 'maria');
      const out = await s.call('POST', API.logout, { token });
      expect(out.body).toEqual({ ok: true });
      expect(await open(token)).toBe(false);
    } finally {
      await edit({});
    }
  });

  it("the IdP's LogoutRequest ends every session that provider signed the person in, audited, and is answered", async () => {
    const one = await signIn(new Browser(), 'maria');
    const two = await signIn(new Browser(), 'maria');
    const other = await signIn(new Browser(), 'tomas');
    const request = await idp.logoutRequestFor('maria@harbour.example', metadataUrl());
    expect(request.action).toBe(`${s.base}${API.samlSlo}?provider=${key}`);
    const b = new Browser();
    const res = await post(b, request.action, { SAMLRequest: request.SAMLRequest, RelayState: request.RelayState });
    expect(res.status, await res.clone().text()).toBe(302);
    expect(await open(one.token)).toBe(false);
    expect(await open(two.token)).toBe(false);
    expect(await open(other.token)).toBe(true);
    expect(await s.count("select 1 from audit_log where action = 'provider-sign-out' and actor = 'Harbour ADFS'")).toBeGreaterThan(0);
    // the answer goes back to the IdP, signed, and says Success to its request
    const answer = new URL(res.headers.get('location')!);
    expect(answer.searchParams.get('Signature')).toBeTruthy();
    expect((await b.go(answer.href)).status).toBe(200);
    expect(idp.logouts.responses.at(-1)).toEqual({ inResponseTo: request.id, status: 'urn:oasis:names:tc:SAML:2.0:status:Success' });
    // the same LogoutRequest again is a replay
    const replay = await post(b, request.action, { SAMLRequest: request.SAMLRequest, RelayState: request.RelayState });
    expect(replay.status).toBe(400);
    expect((await replay.json()).violations[0].message).toMatch(/already taken/);
  });

  const refusals: [string, Parameters<TestSamlIdp['logoutRequestFor']>[2], RegExp][] = [
    ['an unsigned LogoutRequest', { key: 'none' }, /signature/i],
    ['a LogoutRequest signed by another key', { key: 'stranger' }, /signature/i],
    ['a LogoutRequest of another issuer', { issuer: 'https://other-idp.example' }, /issuer/i],
    ['a LogoutRequest for another service provider', { destination: 'https://elsewhere.example/slo' }, /destination/i],
  ];
  for (const [what, how, why] of refusals)
    it(`refuses ${what} in words, ending nothing`, async () => {
      const { token } = await signIn(new Browser(), 'tomas');
      const request = await idp.logoutRequestFor('tomas@harbour.example', metadataUrl(), how);
      const res = await post(new Browser(), `${s.base}${API.samlSlo}?provider=${key}`, { SAMLRequest: request.SAMLRequest, RelayState: request.RelayState });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.message).toBe("The identity provider's sign-out message was refused: it failed Gatehouse's checks");
      expect(body.violations[0]).toMatchObject({ field: 'SAMLRequest', message: expect.stringMatching(why) });
      expect(await open(token)).toBe(true);
    });

  it('answers an unknown provider 404 and a message of nothing 400, never a 5xx', async () => {
    const unknown = await post(new Browser(), `${s.base}${API.samlSlo}?provider=idp-999999`, { SAMLRequest: 'x' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).violations[0].field).toBe('provider');
    const empty = await post(new Browser(), `${s.base}${API.samlSlo}?provider=${key}`, {});
    expect(empty.status).toBe(400);
    expect((await empty.json()).violations[0].field).toBe('SAMLRequest');
    const garbage = await post(new Browser(), `${s.base}${API.samlSlo}?provider=${key}`, { SAMLRequest: 'bm90IHhtbA==' });
    expect(garbage.status).toBe(400);
    const huge = await post(new Browser(), `${s.base}${API.samlSlo}?provider=${key}`, { SAMLRequest: 'A'.repeat(10 * 1024 * 1024) });
    expect(huge.status).toBe(413);
  });
});
