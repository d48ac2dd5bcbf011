// IAM mode (issue 49) as a new operator meets it: the sign-in page offers "Sign in with <provider>", the company's
// identity provider (a real oidc-provider on a loopback port) signs them in, and they arrive in the console with the
// role their group gives, an account made for them on the way; signing out ends the provider's session too and comes
// back to the sign-in page. A person in no mapped group is told so in words. Breadth (the attacks) is in
// server/auth/iam/oidc.test.ts.
import { expect, test } from './fixtures';
import { ownServer, type OwnServer } from './server';
import { skipTourIfShown } from './helpers';
import { startTestIdp, type TestIdp } from '../server/auth/iam/testIdp';

let idp: TestIdp;
let server: OwnServer;
test.beforeAll(async () => {
  idp = await startTestIdp({
    anyLoopbackPort: true,
    redirectUris: ['http://127.0.0.1/idp/1.0/oidc/callback'],
    postLogoutRedirectUris: ['http://127.0.0.1/login'],
    people: {
      ines: { name: 'Ines Duarte', email: 'ines@corp.example', preferred_username: 'ines', groups: ['gatehouse-operators'] },
      sam: { name: 'Sam Sales', preferred_username: 'sam', groups: ['sales'] },
    },
  });
  server = await ownServer('iam', idp.env('gatehouse-operators=NORTHWIND:security-operator', 'Corp SSO'));
});
test.afterAll(async () => {
  await server?.dispose();
  await idp?.close();
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
