// Local devices and the guided tour (issue 5): no card connector on this machine → the guide message; no
// companion → offline; a skipped tour stays away after signing in again, a stopped one comes back.
import { expect, test } from './fixtures';
import { PASSWORD, shot, signIn } from './helpers';

async function signInRaw(page: import('@playwright/test').Page, username: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('app-shell')).toBeVisible();
}
async function signOut(page: import('@playwright/test').Page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}

test('a stopped tour shows again at the next sign-in; a skipped one stays away until restarted', async ({ page, request }) => {
  // start from a user who has not skipped the tour (other specs skip it for the users they sign in)
  const login = await request.post('/idp/1.0/login', { data: { username: 'auditor', password: PASSWORD } });
  const { token } = await login.json();
  expect((await request.put('/idp/1.0/me/settings', { headers: { authorization: `Bearer ${token}` }, data: { tourView: true } })).ok()).toBe(true);
  await signInRaw(page, 'auditor');
  const tour = page.getByTestId('tour');
  await expect(tour).toBeVisible();
  await expect(page.getByTestId('tour-progress')).toHaveText('Step 1 of 5');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('tour-progress')).toHaveText('Step 2 of 5');
  await shot(page, 'tour');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(tour).toBeHidden();
  await signOut(page);

  await signInRaw(page, 'auditor');
  await expect(tour).toBeVisible();
  await page.getByRole('button', { name: 'Skip tour' }).click();
  await expect(tour).toBeHidden();
  await signOut(page);

  await signInRaw(page, 'auditor');
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(tour).toBeHidden();
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Restart tour' }).click();
  await expect(tour).toBeVisible();
  // its first step rings the sidebar itself at 1440 px
  const ring = page.getByTestId('tour-highlight');
  const sidebar = (await page.getByTestId('sidebar').boundingBox())!;
  await expect.poll(async () => (await ring.boundingBox())?.height ?? 0).toBeGreaterThan(sidebar.height / 2);
});

test('on a phone the tour points at the menu button that opens the sidebar', async ({ page, request }) => {
  const login = await request.post('/idp/1.0/login', { data: { username: 'auditor', password: PASSWORD } });
  const { token } = await login.json();
  expect((await request.put('/idp/1.0/me/settings', { headers: { authorization: `Bearer ${token}` }, data: { tourView: true } })).ok()).toBe(true);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInRaw(page, 'auditor');
  await expect(page.getByTestId('tour-progress')).toHaveText('Step 1 of 5');
  // the sidebar is behind the menu button on a phone: the ring is around that button (before, no ring at all)
  const ring = page.getByTestId('tour-highlight');
  await expect(ring).toBeVisible();
  const button = (await page.getByTestId('sidebar-toggle').boundingBox())!;
  const box = (await ring.boundingBox())!;
  expect(box.x).toBeLessThanOrEqual(button.x);
  expect(box.y).toBeLessThanOrEqual(button.y);
  expect(box.x + box.width).toBeGreaterThanOrEqual(button.x + button.width);
  expect(box.y + box.height).toBeGreaterThanOrEqual(button.y + button.height);
  expect(box.width).toBeLessThan(120); // the button, not the page
  await shot(page, 'tour-390');
  await page.getByRole('button', { name: 'Skip tour' }).click();
  await expect(page.getByTestId('tour')).toBeHidden();
});

test('without a companion or a card connector the console says so', async ({ page }) => {
  await signIn(page, 'hr');
  await expect(page.getByTestId('companion-indicator')).toHaveAttribute('data-status', 'offline');
  await page.goto('/manage/identities/add');
  await page.getByTestId('connect-card-reader').click();
  await expect(page.getByTestId('card-connector-status')).toHaveAttribute('data-status', 'serviceMissing');
  await expect(page.getByTestId('card-connector-status')).toContainText(/Card Connector/i);
  await expect(page.getByTestId('take-photo')).toHaveCount(0);
  await shot(page, 'card-connector-missing');
});
