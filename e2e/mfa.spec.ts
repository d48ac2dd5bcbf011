// Issue 49: TOTP as a new operator meets it. The client requires two-step verification of every operator; a new
// operator signs in with the password, is led to enrol before anything else (QR code, first code, recovery codes shown
// once), lands in the console; a second sign-in asks for the code, refuses a wrong one in words, and takes the next;
// on the Profile it makes new recovery codes (asked, confirmed with the password), and the old ones stop working.
import { generate } from 'otplib';
import { expect, test } from './fixtures';
import { PASSWORD, signIn as signInWithToken } from './helpers';

const step = () => Math.floor(Date.now() / 30_000);

test('a client that requires MFA leads a new operator to enrol an authenticator app, then asks for its code at each sign-in', async ({ page, browser }) => {
  const login = await page.request.post('/idp/1.0/login', { data: { username: 'admin', password: PASSWORD } });
  const headers = { authorization: `Bearer ${(await login.json()).token}` };
  const clients = await (await page.request.get('/central/1.0/clients?size=100', { headers })).json();
  const northwind = clients.items.find((c: { name: string }) => c.name === 'Northwind Logistics');
  const selected = await page.request.put('/idp/1.0/me/client', { headers, data: { clientId: northwind.id } });
  const auth = { authorization: `Bearer ${(await selected.json()).token}` };
  const made = await page.request.post('/event/manage/operators', { headers: auth, data: { username: 'mfa-e2e', name: 'Mia Factor', password: PASSWORD } });
  expect(made.status()).toBe(201);
  const before = await (await page.request.get('/event/manage/operator-settings', { headers: auth })).json();
  await page.request.put('/event/manage/operator-settings', { headers: auth, data: { ...before, mfaRequired: 2 } });
  try {
    await page.goto('/login');
    await page.getByLabel('Username').fill('mfa-e2e');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible();
    await page.getByTestId('mfa-enrol-app').click();
    await expect(page.getByRole('img', { name: 'QR code to scan with the authenticator app' })).toBeVisible();
    const secret = (await page.getByTestId('mfa-secret').textContent())!;
    const enrolled = step();
    await page.getByLabel('Code from the app').fill(await generate({ secret, epoch: enrolled * 30 }));
    await page.getByTestId('mfa-submit').click();
    const codes = page.getByTestId('mfa-recovery-codes').locator('li');
    await expect(codes).toHaveCount(10);
    const oldCode = (await codes.first().textContent())!;
    await page.getByTestId('mfa-codes-kept').click();
    // signed in (a new operator holds no role yet: the console says so, signed in)
    const signedIn = (p: typeof page) => expect(p.getByTestId('app-shell').or(p.getByTestId('forbidden')).first()).toBeVisible();
    await signedIn(page);
    expect(await page.evaluate(() => localStorage.getItem('jwt'))).toBeTruthy();

    const other = await (await browser.newContext()).newPage();
    await other.goto('/login');
    await other.getByLabel('Username').fill('mfa-e2e');
    await other.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await other.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(other.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    await other.getByLabel('Verification code').fill('000000');
    await other.getByTestId('mfa-submit').click();
    await expect(other.getByTestId('mfa-error')).toContainText('is wrong or was already used');
    await other.getByLabel('Verification code').fill(await generate({ secret, epoch: (enrolled + 1) * 30 }));
    await other.getByTestId('mfa-submit').click();
    await signedIn(other);

    // Profile: new recovery codes, asked first and confirmed again (the password here; a current code on the server
    // tests); shown once, and the old ones stop working
    await other.goto('/profile');
    const card = other.getByTestId('profile-mfa');
    await expect(card.getByTestId('recovery-codes-left')).toHaveText('Recovery codes left: 10');
    await card.getByTestId('new-recovery-codes').click();
    const dialog = other.getByRole('dialog', { name: 'New recovery codes' });
    await expect(dialog).toContainText('The recovery codes you have now stop working');
    await dialog.getByLabel('Or your password').fill('not-the-password');
    await dialog.getByTestId('mfa-confirm').click();
    await expect(dialog).toContainText('Your password is not the current password');
    await dialog.getByLabel('Or your password').fill(PASSWORD);
    await dialog.getByTestId('mfa-confirm').click();
    const kept = other.getByRole('dialog', { name: 'Keep your recovery codes' });
    const fresh = kept.getByTestId('new-recovery-code-list').locator('li');
    await expect(fresh).toHaveCount(10);
    const newCode = (await fresh.first().textContent())!;
    expect(newCode).not.toBe(oldCode);
    await kept.getByTestId('recovery-codes-kept').click();
    await expect(kept).toBeHidden();
    await expect(card.getByTestId('recovery-codes-left')).toHaveText('Recovery codes left: 10');
    const signInWith = async (code: string) => {
      const first = await (await other.request.post('/idp/1.0/login', { data: { username: 'mfa-e2e', password: PASSWORD } })).json();
      return (await other.request.post('/idp/1.0/login/second-factor', { data: { ticket: first.ticket, code } })).status();
    };
    expect(await signInWith(oldCode)).toBe(401);
    expect(await signInWith(newCode)).toBe(200);
  } finally {
    await page.request.put('/event/manage/operator-settings', { headers: auth, data: before });
  }
});

// Passkeys as a new operator meets them, with chromium's virtual authenticator (CDP WebAuthn domain): led to enrol
// before anything else, the operator chooses a passkey; the next sign-in asks for it (server/auth/mfa/passkeys.test.ts holds that
// the session records password+passkey); on the Profile the operator adds an authenticator app (confirmed with the password), removes the passkey
// (confirmed with a code of the app) and is refused removing the app, the last factor the client requires. WebAuthn
// needs a domain, not an IP address: the page uses localhost (the same server).
test('a new operator enrols a passkey in chromium, signs in with it (after the password, then alone), and changes the factors on the Profile', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(180_000); // a sign-in more than before: more than the default on a loaded machine
  const origin = baseURL!.replace('127.0.0.1', 'localhost');
  const login = await page.request.post('/idp/1.0/login', { data: { username: 'admin', password: PASSWORD } });
  const headers = { authorization: `Bearer ${(await login.json()).token}` };
  const clients = await (await page.request.get('/central/1.0/clients?size=100', { headers })).json();
  const northwind = clients.items.find((c: { name: string }) => c.name === 'Northwind Logistics');
  const auth = {
    authorization: `Bearer ${(await (await page.request.put('/idp/1.0/me/client', { headers, data: { clientId: northwind.id } })).json()).token}`,
  };
  const made = await page.request.post('/event/manage/operators', { headers: auth, data: { username: 'passkey-e2e', name: 'Pia Key', password: PASSWORD } });
  expect(made.status()).toBe(201);
  const before = await (await page.request.get('/event/manage/operator-settings', { headers: auth })).json();
  await page.request.put('/event/manage/operator-settings', { headers: auth, data: { ...before, mfaRequired: 2 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  const signIn = async () => {
    await page.goto(`${origin}/login`);
    await page.getByLabel('Username').fill('passkey-e2e');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  };
  const signedIn = () => expect(page.getByTestId('app-shell').or(page.getByTestId('forbidden')).first()).toBeVisible();
  // the operator has no role yet: the console opens on Access denied, whose Sign out ends the session
  const signOut = async () => {
    await page.getByTestId('forbidden').getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByLabel('Username')).toBeVisible();
  };
  try {
    await signIn();
    await expect(page.getByRole('heading', { name: 'Set up two-step verification' })).toBeVisible();
    await page.getByTestId('mfa-enrol-passkey').click();
    await expect(page.getByTestId('mfa-recovery-codes').locator('li')).toHaveCount(10);
    expect(await credentials()).toHaveLength(1);
    await page.getByTestId('mfa-codes-kept').click();
    await signedIn();

    // the next sign-in asks for the passkey (signed out as a person does: clearing the storage under a running console
    // raced its own write of the session, and /login then opened the console again)
    await signOut();
    await signIn();
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    await page.getByTestId('mfa-passkey').click();
    await signedIn();

    // a passkey alone, no password: "Sign in with a passkey" on the sign-in page (the authenticator verifies the person)
    await signOut();
    await page.getByTestId('signin-passkey').click();
    await signedIn();

    // Profile: add an authenticator app, confirmed with the password
    await page.goto(`${origin}/profile`);
    const card = page.getByTestId('profile-mfa');
    await expect(card.getByTestId('mfa-passkeys').locator('li')).toHaveCount(1);
    await card.getByTestId('add-totp').click();
    const add = page.getByRole('dialog', { name: 'Add an authenticator app' });
    await add.getByLabel('Your password').fill(PASSWORD);
    await add.getByTestId('mfa-confirm').click();
    const secret = (await add.getByTestId('mfa-secret').textContent())!;
    const enrolled = step();
    await add.getByLabel('Code from the app').fill(await generate({ secret, epoch: enrolled * 30 }));
    await add.getByTestId('mfa-confirm').click();
    await page.getByRole('dialog', { name: 'Keep your recovery codes' }).getByTestId('recovery-codes-kept').click();
    await expect(card.getByTestId('mfa-app')).toContainText('On');

    // remove the passkey, confirmed with a code of the app
    await card.getByRole('button', { name: /^Remove the passkey/ }).click();
    const remove = page.getByRole('dialog', { name: /^Remove the passkey/ });
    await remove.getByLabel('Code from the app').fill(await generate({ secret, epoch: (enrolled + 1) * 30 }));
    await remove.getByTestId('mfa-confirm').click();
    await expect(remove).toBeHidden();
    await expect(card.getByTestId('mfa-passkeys').locator('li')).toHaveCount(0);

    // the app is now the last factor, and the client requires one: refused in words, nothing removed
    await card.getByTestId('remove-totp').click();
    const last = page.getByRole('dialog', { name: 'Remove the authenticator app' });
    await last.getByLabel('Or your password').fill(PASSWORD);
    await last.getByTestId('mfa-confirm').click();
    await expect(last.getByRole('alert')).toContainText('Authenticator app is the only second factor, and the client requires one');
    await last.getByRole('button', { name: 'Cancel' }).click();
    await expect(card.getByTestId('mfa-app')).toContainText('On');
  } finally {
    await page.request.put('/event/manage/operator-settings', { headers: auth, data: before });
  }

  // Monitor → Operator sessions tells an administrator how each of these sessions was signed in (the operator has
  // no role: before the fix of issue 49 the list left such an operator out)
  const admin = await (await browser.newContext({ viewport: { width: 1400, height: 800 } })).newPage();
  await signInWithToken(admin, 'admin', { client: 'Northwind Logistics', at: '/monitor/operator-sessions' });
  const sessions = admin.getByTestId('operator-sessions');
  // removing the passkey above ended the sessions signed in with it: all of them, ended too
  await sessions.getByRole('searchbox', { name: 'Filter operator sessions' }).fill('passkey-e2e');
  await sessions.getByRole('searchbox', { name: 'Filter operator sessions' }).press('Enter');
  await sessions.getByLabel('Session state').getByText('All', { exact: true }).click();
  const rows = sessions.getByRole('row', { name: 'Pia Key (passkey-e2e)' });
  await expect(rows.filter({ hasText: 'Password + passkey' }).first()).toBeVisible();
  await expect(rows.filter({ hasText: /^(?!.*Password).*Passkey/ })).toHaveCount(1);
  await admin.context().close();
});
