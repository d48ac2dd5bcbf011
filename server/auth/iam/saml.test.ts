// SAML 2.0 sign-in through a client's identity provider (issue 49), against a real IdP on a loopback port
// (./testSamlIdp.ts: the AuthnRequest taken by HTTP-Redirect, the Response posted back with an Assertion signed by
// xml-crypto). The round trip with its just-in-time account and roles from the groups attribute, and the attacks:
// a forged signature, an altered or wrapped assertion, another audience, another recipient, an expired assertion, a
// replay, another issuer, a state of nobody, an answer of 10 MB. Each is a 4xx in words that makes no account.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, identityProvidersResource } from '../../../contract';
import { startTestServer, type TestServer } from '../../testkit';
import { Browser } from './testBrowser';
import { samlProviderBody, startTestSamlIdp, type TestSamlIdp } from './testSamlIdp';

let s: TestServer;
let idp: TestSamlIdp;
let key: string;

beforeAll(async () => {
  s = await startTestServer();
  idp = await startTestSamlIdp({
    groupsAttribute: 'memberOf',
    people: {
      maria: { subject: 'maria@harbour.example', email: 'maria@harbour.example', displayName: 'Maria Lopes', uid: 'maria', groups: ['hh-security'] },
      nobody: { subject: 'nobody@harbour.example', uid: 'nobody', groups: ['hh-catering'] },
    },
  });
  const admin = await s.login('harbour');
  const r = await s.call('POST', identityProvidersResource.api, { token: admin, body: samlProviderBody(idp, { groupsAttribute: 'memberOf' }) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  key = `idp-${r.body.id}`;
}, 180_000);
afterAll(async () => {
  await idp?.close();
  await s?.close();
});
beforeEach(() => {
  idp.tamper(null);
  idp.foreignKey(false);
  idp.afterSigning(null);
});

/** Gatehouse's start, the IdP's sign-in of `login`: the form the browser would post to our ACS. */
async function toIdp(b: Browser, login: string) {
  const start = await b.go(`${s.base}${API.samlStart}?provider=${key}`);
  expect(start.status, await start.clone().text()).toBe(302);
  const at = new URL(start.headers.get('location')!);
  expect(at.origin + at.pathname).toBe(idp.ssoUrl);
  at.searchParams.set('login', login);
  const page = await (await b.go(at.href)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1] ?? '';
  return { action: /action="([^"]+)"/.exec(page)![1].replace(/&amp;/g, '&'), SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') };
}
const post = (b: Browser, form: { SAMLResponse: string; RelayState: string }, accept = 'application/json') =>
  b.go(`${s.base}${API.samlAcs}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    body: new URLSearchParams(form).toString(),
  });
const accounts = () => s.count("select 1 from iam_accounts where provider like 'idp-%'");

describe('SAML 2.0 sign-in (issue 49)', () => {
  it('publishes the service provider metadata: our entity ID and assertion consumer service', async () => {
    const res = await fetch(`${s.base}${API.samlMetadata}?provider=${key}`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${s.base}${API.samlMetadata}?provider=${key}`.replace(/&/g, '&amp;'));
    expect(xml).toContain(`Location="${s.base}${API.samlAcs}"`);
    expect((await fetch(`${s.base}${API.samlMetadata}?provider=idp-999999`)).status).toBe(404);
  });

  it('is offered on its client’s sign-in page', async () => {
    const r = await s.call('GET', `${API.iamProviders}?client=HARBOUR`);
    expect(r.body).toEqual([{ key, kind: 'saml', name: 'Harbour ADFS', start: `${API.samlStart}?provider=${key}` }]);
  });

  it('signs a person in: an account made just in time with the roles of their groups, a session that says SAML', async () => {
    const b = new Browser();
    const form = await toIdp(b, 'maria');
    expect(form.action).toBe(`${s.base}${API.samlAcs}`);
    const back = await post(b, form);
    expect(back.status, await back.clone().text()).toBe(302);
    const ticket = /^\/login#iam=([A-Za-z0-9_-]+)$/.exec(back.headers.get('location')!)![1];
    const res = await b.go(s.base + API.iamExchange, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticket }) });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.user).toMatchObject({ username: 'maria', name: 'Maria Lopes', roles: ['security-operator'] });
    const session = await s.db.query('select sign_in_method, sign_in_provider from sessions s join users u on u.id = s.user_id where u.username = $1', [
      'maria',
    ]);
    expect(session.rows).toEqual([{ sign_in_method: 'saml', sign_in_provider: key }]);
    expect(await s.count("select 1 from audit_log where entity = 'operator' and action = 'create' and actor = 'Harbour ADFS'")).toBe(1);
  });

  it('refuses a replayed answer: its flow is used, and the same assertion under a new flow is refused too', async () => {
    const b = new Browser();
    const form = await toIdp(b, 'maria');
    expect((await post(b, form)).status).toBe(302);
    const again = await post(b, form);
    expect(again.status).toBe(400);
    expect((await again.json()).violations[0].field).toBe('RelayState');
    // the captured answer under a fresh flow of the attacker's own: it answers another request
    const fresh = await toIdp(b, 'maria');
    const replay = await post(b, { SAMLResponse: form.SAMLResponse, RelayState: fresh.RelayState });
    expect(replay.status).toBe(400);
    expect((await replay.json()).violations[0]).toMatchObject({ field: 'SAMLResponse', message: expect.stringMatching(/InResponseTo/i) });
  });

  it('refuses the same assertion ID twice, even answering a new request', async () => {
    const b = new Browser();
    idp.tamper((a) => ({ ...a, assertionId: '_a-fixed-id-for-the-replay-test' }));
    expect((await post(b, await toIdp(b, 'maria'))).status).toBe(302);
    const second = await post(b, await toIdp(b, 'maria'));
    expect(second.status).toBe(400);
    expect((await second.json()).violations[0].message).toMatch(/already used/);
  });

  const refusals: [string, () => void, RegExp][] = [
    ['a signature by another key (forged)', () => idp.foreignKey(true), /signature/i],
    ['an assertion changed after signing (other groups)', () => idp.afterSigning((xml) => xml.replace('>hh-catering<', '>hh-security<')), /signature/i],
    [
      'a wrapped assertion (a second, unsigned one beside the signed one)',
      () =>
        idp.afterSigning((xml) => {
          const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
          const evil = signed
            .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
            .replace(/ID="[^"]+"/, 'ID="_evil"')
            .replace('>hh-catering<', '>hh-security<');
          return xml.replace(signed, evil + signed);
        }),
      /assertion|signature/i,
    ],
    ['an assertion for another audience', () => idp.tamper((a) => ({ ...a, audience: 'https://elsewhere.example/sp' })), /audience/i],
    ['an assertion for another recipient', () => idp.tamper((a) => ({ ...a, recipient: 'https://elsewhere.example/acs' })), /recipient/i],
    [
      'an expired assertion',
      () => idp.tamper((a) => ({ ...a, notBefore: new Date(Date.now() - 3_600_000), notOnOrAfter: new Date(Date.now() - 1_800_000) })),
      /expired|NotOnOrAfter|subject confirmation/i,
    ],
    ['an assertion not valid yet', () => idp.tamper((a) => ({ ...a, notBefore: new Date(Date.now() + 1_800_000) })), /NotBefore|not yet|time/i],
    ['an assertion of another issuer', () => idp.tamper((a) => ({ ...a, issuer: 'https://other-idp.example' })), /issuer/i],
  ];
  for (const [what, arrange, why] of refusals)
    it(`refuses ${what}, in words, making nothing`, async () => {
      arrange();
      const before = await accounts();
      const b = new Browser();
      // a person in no mapped group: an answer taken would be visible as a 403, not this 400
      const res = await post(b, await toIdp(b, 'nobody'));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.message).toBe("The identity provider's answer was refused: it failed Gatehouse's checks");
      expect(body.violations[0]).toMatchObject({ field: 'SAMLResponse', message: expect.stringMatching(why) });
      expect(await accounts()).toBe(before);
    });

  it('tells a person in no mapped group so, in words, and makes nothing', async () => {
    const before = await accounts();
    const b = new Browser();
    const res = await post(b, await toIdp(b, 'nobody'), 'text/html');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('You are in none of the groups of your organisation');
    expect(await accounts()).toBe(before);
  });

  it('refuses an answer with no known state, and one of 10 MB, without a 5xx', async () => {
    const b = new Browser();
    const form = await toIdp(b, 'maria');
    const forged = await post(b, { ...form, RelayState: 'x'.repeat(43) });
    expect(forged.status).toBe(400);
    expect((await forged.json()).violations[0].field).toBe('RelayState');
    const huge = await post(b, { SAMLResponse: 'A'.repeat(10 * 1024 * 1024), RelayState: form.RelayState });
    expect(huge.status).toBe(413);
  });
});
