// Issue 49: TOTP as a new operator meets it. The client requires two-step verification of every operator; a new
// operator signs in with the password, is led to enrol before anything else (QR code, first code, recovery codes shown
// once), lands in the console; a second sign-in asks for the code, refuses a wrong one in words, and takes the next;
// on the Profile it makes new recovery codes (asked, confirmed with the password), and the old ones stop working.
import { generate } from 'otplib';
import { expect, test } from './fixtures';
import { PASSWORD } from './helpers';

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
    await page.getByRole('button', { name: 'Sign in' }).click();
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
    await other.getByRole('button', { name: 'Sign in' }).click();
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
    await dialog.getByTestId('make-recovery-codes').click();
    await expect(dialog).toContainText('Your password is not the current password');
    await dialog.getByLabel('Or your password').fill(PASSWORD);
    await dialog.getByTestId('make-recovery-codes').click();
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
