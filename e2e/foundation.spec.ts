// The foundation end to end: the built console against a real server and database (issue 3).
import { expect, test } from './fixtures';
import { PASSWORD, selectClient, shot, signIn, go } from './helpers';

test('a multi-tenant administrator selects a client, fixes a bad field and saves an identity', async ({ page }) => {
  await signIn(page, 'admin');
  // with no client selected the dashboard sends the administrator to the clients screen (§2); the selection is
  // remembered on the server, so an earlier spec (client switching) may have left one selected
  const me = await (
    await page.request.get('/idp/1.0/me', { headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}` } })
  ).json();
  await go(page, '/dashboard');
  if (me.user.clientId === null) await expect(page).toHaveURL(/\/manage\/clients$/);
  else await expect(page).toHaveURL(/\/dashboard$/);
  await go(page, '/manage/clients');
  await expect(page.getByRole('row').filter({ hasText: 'Harbour Health' })).toBeVisible();
  await shot(page, 'clients');
  await selectClient(page, 'Northwind Logistics');
  await go(page, '/dashboard');
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const total = (await (await page.request.get('/event/manage/identities?size=1', { headers: { authorization: `Bearer ${token}` } })).json()).total;
  expect(total).toBeGreaterThanOrEqual(240); // the seeded Northwind staff, plus what earlier specs added
  await expect(page.getByTestId('widget-identities')).toContainText(String(total));
  await shot(page, 'dashboard');

  await go(page, '/manage/identities/add');
  const form = page.getByTestId('identities-form');
  await page.getByTestId('add-credentials').click();
  await expect(form.getByTestId('credentials-row')).toHaveCount(1);
  await form.getByLabel('First name').fill('Nurul');
  await form.getByLabel('Last name').fill('Hakim');
  await form.getByLabel('Employee no.').pressSequentially('nw-e2e-01');
  await expect(form.getByLabel('Employee no.')).toHaveValue('NW-E2E-01'); // auto-uppercase
  await form.getByLabel('Email').fill('not-an-email');
  await form.getByLabel('Division').selectOption({ label: 'Security' });
  await page.getByTestId('form-save').click();
  // the first invalid field is focused and says why (§5)
  await expect(form.getByLabel('Email')).toBeFocused();
  await expect(form.getByText(/Email has the wrong format/)).toBeVisible();
  await shot(page, 'identity-form-errors');
  await form.getByLabel('Email').fill('nurul.hakim@northwind.example');
  await page.getByTestId('form-save').click();
  // the credential row is the next invalid field, inside a repeated row
  await expect(form.locator('[name="credentials[0].number"]')).toBeFocused();
  await form.locator('[name="credentials[0].number"]').pressSequentially('e2e900');
  await page.getByTestId('form-save').click();
  await expect(page).toHaveURL(/\/manage\/identities$/);

  await page.getByLabel('Filter identities').fill('NW-E2E-01');
  const row = page.getByRole('row').filter({ hasText: 'Hakim, Nurul' });
  await expect(row).toBeVisible();
  await shot(page, 'identities');

  // the change is in the activity report, newest first
  await page.getByTestId('sidebar').getByRole('link', { name: 'Activity report', exact: true }).click();
  const report = page.getByTestId('activity-report');
  // in plain words (issue 50): the operator's name, what was added and its name
  await expect(report).toContainText('Alex Admin');
  await expect(report).toContainText('Added');
  await expect(report).toContainText('Identity: Nurul Hakim');
  await shot(page, 'activity-report');
});

test('eleven screens open ten tabs at most', async ({ page }) => {
  await signIn(page, 'operator');
  const titles = [
    'Alarms',
    'Events',
    'Floor plan',
    'Operator sessions',
    'Service account sessions',
    'Identities',
    'Alarm groups',
    'Doors',
    'Controllers',
    'Activity report',
    'Event report',
  ];
  for (const title of titles) {
    await page.getByTestId('sidebar').getByRole('link', { name: title, exact: true }).click();
    await expect(page).toHaveTitle(new RegExp(title));
  }
  await expect(page.getByTestId('tab')).toHaveCount(10);
  // the newest is there, the oldest was dropped
  await expect(page.getByTestId('tabs-bar')).toContainText('Event report');
  await expect(page.getByTestId('tabs-bar').getByText('Dashboard', { exact: true })).toHaveCount(0);
  await shot(page, 'tabs');
});

test('a receptionist gets 403 on a forbidden route and does not see it in the sidebar', async ({ page }) => {
  await signIn(page, 'reception');
  await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Doors', exact: true })).toHaveCount(0);
  await expect(page.getByTestId('sidebar').getByRole('link', { name: 'Identities', exact: true })).toBeVisible();
  await go(page, '/configure/doors');
  await expect(page.getByTestId('forbidden')).toBeVisible();
  await expect(page.getByTestId('forbidden')).toContainText('Ask an administrator if you should have it.');
  await expect(page.getByTestId('forbidden-choose-client')).toHaveCount(0);
  await shot(page, 'forbidden');
});

test("an administrator with no client selected is led to the clients from a client's screen, not told to ask an administrator", async ({ page }) => {
  // the selection is remembered on the server (an earlier spec may have left one): none, then sign in
  const login = await page.request.post('/idp/1.0/login', { data: { username: 'admin', password: PASSWORD } });
  const none = await page.request.put('/idp/1.0/me/client', { headers: { authorization: `Bearer ${(await login.json()).token}` }, data: { clientId: null } });
  expect(none.ok(), await none.text()).toBe(true);
  await signIn(page, 'admin', { at: '/manage/identities' });
  const forbidden = page.getByTestId('forbidden');
  await expect(forbidden).toContainText('This screen shows one client’s data and no client is selected.');
  await expect(forbidden).not.toContainText('Ask an administrator');
  await page.getByTestId('forbidden-choose-client').click();
  await expect(page).toHaveURL(/\/manage\/clients$/);
  await expect(page.getByRole('row').filter({ hasText: 'Northwind Logistics' })).toBeVisible();
});

test('signed out, a private route goes to login and back after sign-in', async ({ page }) => {
  await go(page, '/manage/identities');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await page.getByLabel('Username').fill('operator');
  await page.getByLabel('Password', { exact: true }).fill('Gatehouse1!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/manage\/identities$/);
});

test('a sign-in on the signed-out-only sign-in page follows its return address too', async ({ page }) => {
  // /login-remake is RESTRICTED: the guard sent the user it had just signed in back a step, to the dashboard
  await go(page, '/login-remake?redirect=%2Fmonitor%2Falarms');
  await page.getByLabel('Username').fill('operator');
  await page.getByLabel('Password', { exact: true }).fill('Gatehouse1!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/monitor\/alarms$/);
  await expect(page.getByTestId('alarms-screen')).toBeVisible();
});

test('an expired session returns to login with the message', async ({ page }) => {
  await page.clock.install();
  await signIn(page, 'hr', { at: '/dashboard' });
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await page.clock.fastForward('08:01:00'); // past the 8 h token lifetime
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId('session-notice')).toHaveText('Session expired, please relogin.');
});

test('a wrong password says so without saying which part was wrong', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill('operator');
  await page.getByLabel('Password', { exact: true }).fill('wrong');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('signin-error')).toContainText('Invalid username or password');
  await shot(page, 'login-error');
});

test('unknown paths and wrong case show 404', async ({ page }) => {
  await signIn(page, 'operator', { at: '/no/such/screen' });
  await expect(page.getByTestId('not-found')).toContainText('Page Not Found');
  await go(page, '/Dashboard');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await go(page, '/dashboard');
  await expect(page.getByTestId('dashboard')).toBeVisible();
});
