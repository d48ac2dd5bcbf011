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

test("a read sent with the old client's token and answered after the switch is sent again with the new one: nobody is signed out", async ({ page }) => {
  await signInAs(page, 'admin');
  await selectClient(page, 'Northwind Logistics');
  await page.getByTestId('sidebar').getByRole('link', { name: 'Identities', exact: true }).click();
  await rowIds(page);
  // the dashboard's read leaves with Northwind's token and is held on its way while the client switches (the switch
  // ends the session of that token, as a read slower than the switch would find it)
  const held: { route: import('@playwright/test').Route; auth: string }[] = [];
  let holding = true;
  await page.route('**/event/manage/dashboard*', async (route) => {
    if (holding) held.push({ route, auth: route.request().headers().authorization ?? '' });
    else await route.continue();
  });
  await page.getByTestId('sidebar').getByRole('link', { name: 'Dashboard', exact: true }).click();
  await expect.poll(() => held.length).toBeGreaterThan(0);
  const oldToken = held[0].auth;
  await switchClient(page, 'Harbour Health');
  holding = false;
  const answers: number[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/event/manage/dashboard')) answers.push(r.status());
  });
  for (const h of held.splice(0)) await h.route.continue();
  // refused (the old session ended with the switch), then sent again with the new token and answered
  await expect.poll(() => answers.includes(401) && answers.includes(200)).toBe(true);
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  expect(`Bearer ${token}`).not.toBe(oldToken);
  // still signed in, in Harbour, on the dashboard
  await expect(page.getByTestId('current-client')).toContainText('Harbour Health');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('session-notice')).toHaveCount(0);
  await expect(page.getByLabel('Username')).toHaveCount(0);
});
