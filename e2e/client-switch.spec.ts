// Issue 10, item 1: switching client takes every open screen with it. The administrator holds both demo
// clients; a list, a kept-alive list in a hidden tab and a record of the old client must not survive the switch.
import { test, type Page } from './fixtures';
import { expect, selectClient, signInAs, switchClient } from './console.helpers';
import { shot } from './helpers';

async function rowIds(page: Page): Promise<string[]> {
  const list = page.locator('[data-testid="view"]:visible [data-testid="identities-list"]');
  await expect(list.getByTestId('row').first()).toBeVisible();
  return list.getByTestId('row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id') ?? ''));
}

/** Identity ids of the first page under the client the browser's token is for, straight from the server. */
async function serverIds(page: Page): Promise<string[]> {
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const res = await page.request.get('/event/manage/identities?size=20', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()).items as { id: number }[]).map((i) => String(i.id));
}

test.describe.configure({ timeout: 120_000 });

test('the open list follows the selected client at once, and its rows open under the new client', async ({ page }) => {
  await signInAs(page, 'admin');
  await selectClient(page, 'Northwind Logistics');
  const northwind = await serverIds(page);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Identities', exact: true }).click();
  const before = await rowIds(page);
  expect(before.some((id) => northwind.includes(id))).toBe(true);

  await switchClient(page, 'Harbour Health');
  const harbour = await serverIds(page);
  expect(harbour.some((id) => northwind.includes(id))).toBe(false);
  // the same screen now lists Harbour's identities, none of Northwind's
  await expect.poll(async () => (await rowIds(page)).some((id) => northwind.includes(id))).toBe(false);
  expect((await rowIds(page)).some((id) => harbour.includes(id))).toBe(true);
  await shot(page, 'client-switch-list');

  // and a row opens: the record is found under the client it was listed for
  await page.locator('[data-testid="view"]:visible [data-testid="row"]').first().getByRole('cell').first().click();
  const form = page.getByTestId('identities-form');
  await expect(form).toBeVisible();
  await expect(form.getByLabel('First name')).not.toHaveValue('');
  await expect(page.getByText(/not found|Could not load/i)).toHaveCount(0);
});

test('hidden tabs of the old client are dropped or reloaded, and its record tabs close', async ({ page }) => {
  await signInAs(page, 'admin');
  await selectClient(page, 'Northwind Logistics');
  const northwind = await serverIds(page);
  // a kept-alive list and an open record of Northwind, then another screen in front of them
  await page.getByTestId('sidebar').getByRole('link', { name: 'Identities', exact: true }).click();
  await rowIds(page);
  await page.locator('[data-testid="view"]:visible [data-testid="row"]').first().getByRole('cell').first().click();
  await expect(page.getByTestId('identities-form')).toBeVisible();
  await expect(page.getByTestId('tab').filter({ hasText: 'Edit identity' })).toHaveCount(1);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await switchClient(page, 'Harbour Health');
  // the Northwind record's tab is gone; the list's tab stays and shows Harbour when opened again
  await expect(page.getByTestId('tab').filter({ hasText: 'Edit identity' })).toHaveCount(0);
  await page.getByTestId('tab').filter({ hasText: 'Identities' }).getByRole('link').click();
  await expect(page).toHaveURL(/\/manage\/identities$/);
  const harbour = await serverIds(page);
  await expect.poll(async () => (await rowIds(page)).some((id) => harbour.includes(id))).toBe(true);
  expect((await rowIds(page)).some((id) => northwind.includes(id))).toBe(false);
});

test('switching client while on a record of the old one goes to the dashboard instead of "not found"', async ({ page }) => {
  await signInAs(page, 'admin');
  await selectClient(page, 'Northwind Logistics');
  await page.getByTestId('sidebar').getByRole('link', { name: 'Identities', exact: true }).click();
  await rowIds(page);
  await page.locator('[data-testid="view"]:visible [data-testid="row"]').first().getByRole('cell').first().click();
  await expect(page.getByTestId('identities-form')).toBeVisible();
  await switchClient(page, 'Harbour Health');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(/not found|Could not load/i)).toHaveCount(0);
});

test('a read of the old client refused after the switch is never sent under the new one, and nobody is signed out', async ({ page }) => {
  await signInAs(page, 'admin');
  await selectClient(page, 'Northwind Logistics');
  // a Northwind floor plan of this test's own (each demo client also has its Ground floor)
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const name = `Switch ${Date.now()}`;
  const made = await page.request.post('/event/manage/floor-plans', {
    headers: { authorization: `Bearer ${token}` },
    data: { name, description: null, image: null, doors: [] },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const plan = `/event/manage/floor-plans/${(await made.json()).id}`;
  // the monitor's read of that plan leaves with Northwind's token and is held on its way while the client switches
  // (the switch ends the session of that token, as a read slower than the switch would find it)
  const held: import('@playwright/test').Route[] = [];
  let holding = true;
  const asked: string[] = [];
  await page.route(`**${plan}`, async (route) => {
    if (holding) held.push(route);
    else await route.continue();
  });
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === plan) asked.push(`${r.status()} ${r.request().headers().authorization === `Bearer ${token}` ? 'northwind' : 'other'}`);
  });
  await page.getByTestId('sidebar').getByRole('link', { name: 'Floor plan', exact: true }).click();
  // the monitor opens the demo's Ground floor first: this test's plan is chosen from the list
  await page.getByTestId('floor-plan-select').selectOption({ label: name });
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await switchClient(page, 'Harbour Health');
  holding = false;
  for (const h of held.splice(0)) await h.continue();
  // refused (the old session ended with the switch) and dropped: Northwind's plan is never asked for with Harbour's token
  await expect.poll(() => asked).toContain('401 northwind');
  // Harbour's own plan is shown, nothing of Northwind's
  const view = page.locator('[data-testid="view"]:visible');
  await expect(view.getByTestId('floor-plan-pin').first()).toBeVisible();
  await expect(view).not.toContainText(name);
  await page.waitForLoadState('networkidle');
  expect(asked.filter((a) => a.endsWith('other'))).toEqual([]);
  // still signed in, in Harbour, nothing said about it
  await expect(page.getByTestId('current-client')).toContainText('Harbour Health');
  await expect(page.getByTestId('session-notice')).toHaveCount(0);
  await expect(page.getByLabel('Username')).toHaveCount(0);
  await expect(page.locator('.bp6-toast')).toHaveCount(0);
});

test('two tabs of one browser share the session: a client switch in one is followed by the other, and so is a sign-out', async ({ page }) => {
  await signInAs(page, 'admin');
  await selectClient(page, 'Northwind Logistics');
  const northwind = await serverIds(page);
  // a second tab of the same browser, on the identities list of Northwind
  const other = await page.context().newPage();
  await other.goto('/manage/identities');
  await expect(other.getByTestId('current-client')).toContainText('Northwind Logistics');
  await expect.poll(async () => (await rowIds(other)).some((id) => northwind.includes(id))).toBe(true);

  await switchClient(page, 'Harbour Health');
  const harbour = await serverIds(page);
  // the other tab follows: Harbour in its header and its list, nothing of Northwind, nobody signed out
  await expect(other.getByTestId('current-client')).toContainText('Harbour Health');
  await expect.poll(async () => (await rowIds(other)).some((id) => harbour.includes(id))).toBe(true);
  expect((await rowIds(other)).some((id) => northwind.includes(id))).toBe(false);
  await expect(other.getByLabel('Username')).toHaveCount(0);

  // a sign-out in the first tab ends the other one too, and it says why
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Username')).toBeVisible();
  await expect(other.getByLabel('Username')).toBeVisible();
  await expect(other.getByTestId('session-notice')).toHaveText('You signed out in another tab.');
  await other.close();
});
