// Doors with their live state: an operator unlocks (after confirming), opens briefly and locks a door and
// sees the state change from the door's heart-beat; the dashboard counts doors by state and lists problems;
// a user without door control sees no buttons.
import { expect, test } from '@playwright/test';
import { shot, signIn } from './helpers';

test('an operator unlocks and locks a door and the state follows live; the dashboard shows door states', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/configure/doors');
  const row = page.getByTestId('door-row').filter({ hasText: 'Roof Access' });
  await expect(row).toBeVisible();

  await row.getByTestId('door-unlock').click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText('Unlock Roof Access?');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByTestId('door-state')).not.toHaveText('Unlocked');

  await row.getByTestId('door-unlock').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Unlock' }).click();
  await expect(row.getByTestId('door-state')).toHaveText('Unlocked');
  await shot(page, 'doors');
  await row.getByTestId('door-lock').click();
  await expect(row.getByTestId('door-state')).toHaveText('Locked');

  // the simulator forces another door: the dashboard lists it as a problem and counts it
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const auth = { authorization: `Bearer ${token}` };
  const doors = (await (await page.request.get('/event/manage/doors', { headers: auth })).json()).items as { id: number; name: string }[];
  await page.goto('/dashboard');
  const widget = page.getByTestId('widget-doorStatus');
  await expect(widget).toBeVisible();
  const alarmsBefore = Number((await page.getByTestId('widget-openAlarms').locator('.gh-stat__value').getAttribute('title')) ?? '0');
  const store = doors.find((d) => d.name === 'Store Room')!;
  expect((await page.request.post('/api/test/simulate', { headers: auth, data: { kind: 'door.forced', doorId: store.id } })).ok()).toBe(true);
  await expect(widget.getByTestId('door-problems')).toContainText('Store Room');
  await expect(widget.getByTestId('door-count-forced-open')).toBeVisible();
  await expect(page.getByTestId('widget-openAlarms').locator('.gh-stat__value')).toHaveAttribute('title', String(alarmsBefore + 1));
  await shot(page, 'dashboard-doors');
});

test('without door control the doors are shown but cannot be commanded', async ({ page }) => {
  await signIn(page, 'auditor');
  await page.goto('/configure/doors');
  await expect(page.getByTestId('door-row').first()).toBeVisible();
  await expect(page.getByTestId('door-unlock')).toHaveCount(0);
  await expect(page.getByTestId('door-lock')).toHaveCount(0);
});
