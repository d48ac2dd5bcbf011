// First person in (issue 12): an administrator gives a door an unlock schedule that waits for the first person in;
// the first valid card unlocks it for the rest of the window, live on the doors screen; taking the schedule away
// locks it again.
import { expect, test } from './fixtures';
import { pick, shot, signInTo, go } from './helpers';

test('the first valid card unlocks a first-person-in door for the rest of its schedule', async ({ page }) => {
  test.setTimeout(120_000);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const door = (await (await page.request.get('/event/manage/doors', { headers })).json()).items.find((d: { name: string }) => d.name === 'HR Office');
  await page.request.post(`/event/manage/doors/${door.id}/commands`, { headers, data: { command: 'lock', force: true } });

  await go(page, `/configure/doors/edit/${door.id}`);
  await pick(page, 'unlockScheduleId', 'Always');
  await page.locator('label.bp6-switch').filter({ hasText: 'Only after the first person is in' }).click();
  await shot(page, 'door-unlock-schedule-1440');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Door saved' }).first()).toBeVisible();

  await go(page, '/configure/doors');
  const row = page.getByTestId('door-row').filter({ hasText: 'HR Office' });
  await expect(row.getByTestId('door-state')).toHaveText('Locked');
  expect((await page.request.post('/api/test/simulate', { headers, data: { kind: 'card.granted', doorId: door.id } })).status()).toBe(200);
  await expect(row.getByTestId('door-state')).toHaveText('Unlocked', { timeout: 15_000 });
  await shot(page, 'first-person-in-1440');

  // the schedule taken away: the door locks again (the clock looks every 5 s)
  await go(page, `/configure/doors/edit/${door.id}`);
  await page
    .locator('[id="field-unlockScheduleId"]')
    .locator('xpath=ancestor::*[contains(@class,"bp6-form-group")]')
    .getByRole('button', { name: /clear/i })
    .click();
  await page.locator('label.bp6-switch').filter({ hasText: 'Only after the first person is in' }).click();
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Door saved' }).first()).toBeVisible();
  await go(page, '/configure/doors');
  await expect(row.getByTestId('door-state')).toHaveText('Locked', { timeout: 20_000 });
});
