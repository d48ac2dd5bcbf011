// IAM mode (issue 49) as a new operator meets it: the sign-in page offers "Sign in with <provider>", the company's
// identity provider (a real oidc-provider on a loopback port) signs them in, and they arrive in the console with the
// role their group gives, an account made for them on the way; signing out ends the provider's session too and comes
// back to the sign-in page. A person in no mapped group is told so in words. A client's administrator connects the
// client's own provider on Manage → Identity providers, and the client's sign-in page offers it. A client's SAML
// provider (server/auth/iam/testSamlIdp.ts), asking for signed requests and encrypted assertions, signs a person in
// and signing out ends its session too (single logout). Breadth (the attacks) is in server/auth/iam/oidc.test.ts,
// providers.test.ts, saml.test.ts and samlLogout.test.ts.
import { expect, test } from './fixtures';
import { ownServer, type OwnServer } from './server';
import { PASSWORD, signIn, skipTourIfShown } from './helpers';
import { startTestIdp, type TestIdp } from '../server/auth/iam/testIdp';
import { startTestSamlIdp, type TestSamlIdp } from '../server/auth/iam/testSamlIdp';

let idp: TestIdp;
let samlIdp: TestSamlIdp;
let server: OwnServer;
test.beforeAll(async () => {
  idp = await startTestIdp({
    anyLoopbackPort: true,
    redirectUris: ['http://127.0.0.1/idp/1.0/oidc/callback'],
    postLogoutRedirectUris: ['http://127.0.0.1/login'],
    people: {
      ines: { name: 'Ines Duarte', email: 'ines@corp.example', preferred_username: 'ines', groups: ['gatehouse-operators'] },
      sam: { name: 'Sam Sales', preferred_username: 'sam', groups: ['sales'] },
      hana: { name: 'Hana Ward', preferred_username: 'hana', groups: ['harbour-guards'] },
    },
  });
  server = await ownServer('iam', idp.env('gatehouse-operators=NORTHWIND:security-operator', 'Corp SSO'));
  samlIdp = await startTestSamlIdp({
    people: { maria: { subject: 'maria@harbour.example', displayName: 'Maria Lopes', uid: 'maria', groups: ['hh-security'] } },
  });
});
test.afterAll(async () => {
  await server?.dispose();
  await idp?.close();
  await samlIdp?.close();
});

test('a new operator signs in with the company provider, works as its group says, and signs out of both', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
  // the provider's own sign-in form
  await page.locator('input[name=login]').fill('ines');
  await page.locator('input[name=password]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // and its consent (the test provider's client is a loopback one, which it asks to confirm every time)
  await page.getByRole('button', { name: 'Continue' }).click();
  // back in the console, signed in as the account made for her
  await expect(page.getByTestId('app-shell')).toBeVisible();
  await skipTourIfShown(page);
  expect(new URL(page.url()).hash).toBe(''); // the ticket is gone from the address
  const me = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(me).toMatchObject({ username: 'ines', name: 'Ines Duarte', roles: ['security-operator'] });

  // sign-out ends the provider's session too (its confirmation), and comes back to the sign-in page
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/`));
  await page.getByRole('button', { name: /yes/i }).click();
  await expect(page).toHaveURL(`${server.url}/login`);
  await expect(page.getByLabel('Username')).toBeVisible();

  // someone in no group that gives access is told so, and nothing is made for them
  await page.getByRole('link', { name: 'Sign in with Corp SSO' }).click();
  await page.locator('input[name=login]').fill('sam');
  await page.locator('input[name=password]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByTestId('iam-refusal')).toHaveText(/You are in none of the groups of your organisation that give access to Gatehouse/);
  await page.getByRole('link', { name: 'Back to the sign-in page' }).click();
  await expect(page.getByLabel('Username')).toBeVisible();
});

test("a client's administrator connects its provider on Manage → Identity providers, and the client's sign-in page offers it", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await signIn(page, 'harbour', { base: server.url, at: '/manage/identity-providers/add' });
  await page.getByLabel('Name').fill('Harbour SSO');
  await page.getByLabel('Issuer').fill(idp.issuer);
  await page.getByLabel('Client ID', { exact: true }).fill(idp.clientId);
  await page.getByLabel('Client secret', { exact: true }).fill(idp.clientSecret);
  await page.getByLabel('Group → role map').fill('harbour-guards=security-operator');
  await page.getByTestId('form-save').click();
  const row = page.getByRole('row').filter({ hasText: 'Harbour SSO' });
  await expect(row).toBeVisible();
  // the secret is never answered back
  const list = await page.request.get(`${server.url}/event/manage/identity-providers`, {
    headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}` },
  });
  expect(await list.text()).not.toContain(idp.clientSecret);

  // the link the administrator hands out: Harbour's sign-in page offers its provider, which signs a person in to Harbour
  const other = await (await browser.newContext()).newPage();
  await other.goto(`${server.url}/login?client=HARBOUR`);
  await other.getByRole('link', { name: 'Sign in with Harbour SSO' }).click();
  await other.locator('input[name=login]').fill('hana');
  await other.locator('input[name=password]').fill('any password');
  await other.getByRole('button', { name: 'Sign-in' }).click();
  await other.getByRole('button', { name: 'Continue' }).click();
  await expect(other.getByTestId('app-shell')).toBeVisible();
  const me = await other.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(me).toMatchObject({ username: 'hana', name: 'Hana Ward', roles: ['security-operator'] });
  await other.context().close();
});

test("a client's SAML provider with signed requests and encrypted assertions signs a person in, and signing out ends its session too", async ({ page }) => {
  test.setTimeout(90_000);
  samlIdp.requireSignedRequests(true);
  samlIdp.encryptFor('sp');
  const login = await page.request.post(`${server.url}/idp/1.0/login`, { data: { username: 'harbour', password: PASSWORD } });
  const token = (await login.json()).token as string;
  const made = await page.request.post(`${server.url}/event/manage/identity-providers`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: 'Harbour ADFS',
      kind: 'saml',
      active: true,
      issuer: samlIdp.entityId,
      ssoUrl: samlIdp.ssoUrl,
      certificate: samlIdp.certificate,
      sloUrl: samlIdp.ssoUrl.replace('/sso', '/slo'),
      signRequests: true,
      encryptAssertions: true,
      roleMap: 'hh-security=security-operator',
    },
  });
  expect(made.status(), await made.text()).toBe(201);

  await page.goto(`${server.url}/login?client=HARBOUR`);
  await page.getByRole('link', { name: 'Sign in with Harbour ADFS' }).click();
  // the IdP's sign-in form (it took the request only because Gatehouse's key signed it)
  await page.locator('input[name=login]').fill('maria');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('app-shell')).toBeVisible();
  await skipTourIfShown(page);
  const me = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
  expect(me).toMatchObject({ username: 'maria', name: 'Maria Lopes', roles: ['security-operator'] });
  expect(samlIdp.sessions.has('maria@harbour.example')).toBe(true);

  // sign-out: the IdP is sent a signed LogoutRequest, ends its session and answers; back on the sign-in page
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  // (the console is on /login before the browser goes to the IdP and back: wait for the IdP's side, then the return)
  await expect.poll(() => samlIdp.logouts.requests.at(-1) ?? null).toMatchObject({ subject: 'maria@harbour.example', signed: true });
  await expect.poll(() => samlIdp.sessions.has('maria@harbour.example')).toBe(false);
  await expect(page).toHaveURL(`${server.url}/login`);
  await expect(page.getByLabel('Username')).toBeVisible();
});
