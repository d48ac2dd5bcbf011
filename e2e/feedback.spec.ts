// Issue 10, items 4–6: the console says what happened. Saves, alarm commands and visitor steps confirm; Cancel on
// a changed form asks; a refused field shows on the field only; a missing record is a not-found state, not a UI
// error; the header's companion badge says what is offline and looks for it on the spec's schedule, quietly.
import { test, type Page } from './fixtures';
import { go } from './helpers';
import { expect, signInAs, signOut } from './console.helpers';

test.describe.configure({ timeout: 120_000 });

/** Today at Northwind (Asia/Kuala_Lumpur): a visit may not be registered for a day already gone there. */
const northwindToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kuala_Lumpur' }).format(new Date());

const bearer = async (page: Page) => ({ authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}` });

test('saving a form says so, Cancel on a changed form asks first, and a refused field shows on the field only', async ({ page }) => {
  await signInAs(page, 'hr'); // HR adds identities (the security operator only looks at them)
  // a card number that is already in use at this client
  const headers = await bearer(page);
  const first = (await (await page.request.get('/event/manage/identities?size=1', { headers })).json()).items[0];
  const taken = (await (await page.request.get(`/event/manage/identities/${first.id}`, { headers })).json()).credentials[0].number as string;

  await go(page, '/manage/identities/add');
  const form = page.getByTestId('identities-form');
  await form.getByLabel('First name').fill('Farid');
  // Cancel on a changed form asks; keeping on editing keeps what was typed
  await page.getByTestId('form-cancel').click();
  await expect(page.getByText('Discard your changes to this identity?')).toBeVisible();
  await page.getByRole('button', { name: 'Keep editing' }).click();
  await expect(form.getByLabel('First name')).toHaveValue('Farid');
  await expect(page).toHaveURL(/\/identities\/add$/);

  await form.getByLabel('Last name').fill('Osman');
  await form.getByLabel('Employee no.').fill('NW-FB-01');
  await form.getByLabel('Division').selectOption({ label: 'Security' });
  await page.getByTestId('add-credentials').click();
  await form.locator('[name="credentials[0].number"]').fill(taken);
  await page.getByTestId('form-save').click();
  // the server refuses the card number: said on the field, not again in a raw toast or a list of field paths
  const row = form.getByTestId('credentials-row').first();
  await expect(row.locator('.bp6-form-helper-text').filter({ hasText: /already issued|in use|exists|taken|unique/i })).toBeVisible();
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await expect(page.getByText(/credentials\.0\.number/)).toHaveCount(0);
  await expect(form.getByTestId('form-violations')).toHaveCount(0);

  await form.locator('[name="credentials[0].number"]').fill('FB9001');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Identity saved' })).toBeVisible();
  await expect(page).toHaveURL(/\/manage\/identities$/);

  // Cancel on an unchanged form just leaves
  await go(page, '/manage/identities/add');
  await page.getByTestId('form-cancel').click();
  await expect(page).toHaveURL(/\/manage\/identities$/);
  await expect(page.getByText('Discard your changes to this identity?')).toHaveCount(0);

  // a changed form discarded on request
  await go(page, '/manage/identities/add');
  await page.getByTestId('identities-form').getByLabel('First name').fill('Gone');
  await page.getByTestId('form-cancel').click();
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(/\/manage\/identities$/);
});

test('acknowledging and processing an alarm say so', async ({ page }) => {
  await signInAs(page, 'operator');
  const headers = await bearer(page);
  const door = (await (await page.request.get('/event/manage/doors?size=1', { headers })).json()).items[0];
  await go(page, '/monitor/alarms');
  await page.request.post('/api/test/simulate', { headers, data: { kind: 'door.forced', doorId: door.id } });
  const row = page.getByTestId('alarm-row').filter({ hasText: door.name }).first();
  await expect(row).toBeVisible();
  await row.getByTestId('alarm-acknowledge').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Alarm acknowledged' })).toBeVisible();
  await row.getByTestId('alarm-process').click();
  await page.getByTestId('alarm-note').fill('Checked on camera: a delivery, door closed.');
  await page.getByTestId('alarm-process-submit').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Alarm processed' })).toBeVisible();
});

test('signing a visitor in and out says so', async ({ page }) => {
  await signInAs(page, 'reception');
  const headers = await bearer(page);
  const visitDate = northwindToday();
  const r = await page.request.post('/visitor/1.0/visitors', {
    headers,
    data: { firstName: 'Lina', lastName: 'Feedback', hostName: 'Sam Operator', visitDate },
  });
  expect(r.ok()).toBe(true);
  const visitor = await r.json();
  await go(page, `/visitor/details/${visitor.id}`);
  await page.getByTestId('visitor-sign-in').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Visitor signed in' })).toBeVisible();
  await expect(page.getByTestId('visitor-status')).toHaveText('On site');
  await page.getByTestId('visitor-sign-out').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Visitor signed out' })).toBeVisible();
});

test('a visitor of another client is "not found": no UI error, no stack in the console, nothing filed', async ({ page }) => {
  // a visitor registered at Northwind
  await signInAs(page, 'reception');
  const visitDate = northwindToday();
  const r = await page.request.post('/visitor/1.0/visitors', {
    headers: await bearer(page),
    data: { firstName: 'Other', lastName: 'Client', hostName: 'Sam Operator', visitDate },
  });
  const northwindVisitor = (await r.json()).id as number;

  await signOut(page);
  await signInAs(page, 'harbour');
  const headers = await bearer(page);
  const filed = async () => (await (await page.request.get('/central/1.0/ui-errors?size=1', { headers })).json()).total as number;
  const before = await filed();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/ERR_CONNECTION_REFUSED|status of 404/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));

  await go(page, `/visitor/details/${northwindVisitor}`);
  await expect(page.getByTestId('visitor-not-found')).toBeVisible();
  await expect(page.getByTestId('visitor-not-found')).toContainText('Visitor not found');
  await expect(page.getByTestId('error-boundary')).toHaveCount(0);
  await expect(page.getByTestId('toast')).toHaveCount(0);
  // the shell is still there to go on with
  await expect(page.getByTestId('app-shell')).toBeVisible();
  expect(errors).toEqual([]);
  expect(await filed()).toBe(before);
});

test('the header says the desktop companion is offline, and looks for it on every port at start, then one port per backoff step', async ({ page }) => {
  // the browser's clock is driven by the test: a minute passes without waiting for it
  await page.clock.install();
  const probes: string[] = [];
  await page.route(/http:\/\/127\.0\.0\.1:478\d\d\/api\/check-port/, (route) => {
    probes.push(route.request().url());
    return route.abort('connectionrefused');
  });
  await signInAs(page, 'operator');
  const badge = page.getByTestId('companion-indicator');
  await expect(badge).toHaveAttribute('data-status', 'offline');
  await expect(badge).toContainText('Companion offline');
  // start-up: all ten candidates once, so a companion already running is found at once on any port
  // (the page's clock stands still, so once the sweep is over no backoff step runs until the test moves it)
  await expect.poll(() => new Set(probes).size).toBe(10);
  let start = -1;
  await expect
    .poll(async () => {
      const n = probes.length;
      await new Promise((r) => setTimeout(r, 300));
      const still = n === probes.length;
      start = probes.length;
      return still;
    })
    .toBe(true);
  // §4: 1 s doubling to 30 s. In a minute that is at most 6 more steps, so at most 6 more refused connections
  // (every port every step was 10 a step, about 60 a minute, each logged by the browser)
  for (let s = 0; s < 60; s++) await page.clock.runFor(1000);
  await expect.poll(() => probes.length).toBeGreaterThan(start);
  expect(probes.length - start).toBeLessThanOrEqual(6);
  // each step tries the next candidate of a new shuffle: different ports
  const steps = probes.slice(start);
  expect(new Set(steps).size).toBe(steps.length);
  // clicking the badge looks everywhere now: all ten ports (the page's clock runs, so a backoff step may add one more
  // probe meanwhile; the step alone would try one port at a time, never all ten within the poll)
  const before = probes.length;
  await badge.click();
  await expect.poll(() => new Set(probes.slice(before)).size).toBe(10);
});
