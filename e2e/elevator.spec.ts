// Elevator masking (issue 12): an administrator frees the ground floors of a lift in the generated form (a range that
// runs backwards is refused on the field); a free floor needs no card and a floor above asks for one, both said in
// the live events.
import { expect, test } from './fixtures';
import { pick, shot, signInTo } from './helpers';

test('masked floors need no card while the schedule is open; the others ask for one', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');

  await page.getByTestId('sidebar').getByRole('link', { name: 'Elevator masking', exact: true }).click();
  await page.getByTestId('elevator-masks').getByTestId('add-button').click();
  await page.locator('#field-name').fill(`Lift ${stamp}`);
  await pick(page, 'readerId', 'Lobby Turnstile 2 reader');
  await page.locator('#field-floors').fill('2-0');
  await pick(page, 'scheduleId', 'Always');
  await page.getByTestId('form-save').click();
  await expect(page.locator('#field-floors').locator('xpath=ancestor::*[contains(@class,"bp6-form-group")]')).toContainText(
    'has a range that runs backwards (2-0)',
  );
  await page.locator('#field-floors').fill('0-2');
  await shot(page, 'elevator-masking-form-1440');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Elevator masking saved' }).first()).toBeVisible();
  await expect(
    page
      .getByTestId('elevator-masks')
      .getByRole('row')
      .filter({ hasText: `Lift ${stamp}` }),
  ).toBeVisible();

  await page.getByTestId('sidebar').getByRole('link', { name: 'Events', exact: true }).click();
  const reader = (await (await page.request.get('/event/manage/card-readers?q=Lobby%20Turnstile%202%20reader', { headers })).json()).items[0];
  await page.request.post('/api/test/simulate', { headers, data: { kind: 'elevator.floor', readerId: reader.id, floor: 1 } });
  await page.request.post('/api/test/simulate', { headers, data: { kind: 'elevator.floor', readerId: reader.id, floor: 7 } });
  await expect(page.getByText(`Floor 1 free: Lift ${stamp} (Lobby Turnstile 2 reader)`).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Floor 7 needs a card (Lobby Turnstile 2 reader)').first()).toBeVisible();
  await shot(page, 'elevator-events-1440');
});
