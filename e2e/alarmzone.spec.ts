// Alarm groups (issue 12): an administrator groups the Loading Bay contact into a zone; the zone opens from the list
// at its alarm-zone address; disarmed, the contact raises no alarm; armed (the address follows), the same contact
// raises a priority-1 intrusion alarm on the Alarms screen; disarming asks first and stops it again.
import { expect, test } from './fixtures';
import { shot, signInTo } from './helpers';

test('an alarm zone armed raises an intrusion alarm from its input; disarmed it does not', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const name = `Perimeter ${stamp}`;
  const headers = await signInTo(page, 'admin', 'Northwind Logistics');
  const contact = (await (await page.request.get(`/event/manage/inputs?q=${encodeURIComponent('Loading Bay contact')}`, { headers })).json()).items[0];
  const trip = async (kind: 'input.active' | 'input.normal') =>
    await (await page.request.post('/api/test/simulate', { headers, data: { kind, inputId: contact.id } })).json();

  await page.getByTestId('sidebar').getByRole('link', { name: 'Alarm groups', exact: true }).click();
  await page.getByTestId('alarm-groups').getByTestId('add-button').click();
  await page.getByLabel('Name').fill(name);
  await page.locator('[id="field-inputIds"]').click();
  await page.locator('[id="field-inputIds"]').fill('Loading Bay contact');
  await page.getByRole('option', { name: 'Loading Bay contact' }).first().click();
  await page.keyboard.press('Escape');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Alarm group saved' }).first()).toBeVisible();

  // the name opens the zone, at the address of its state
  await page.getByTestId('alarm-groups').locator('a', { hasText: name }).click();
  await expect(page).toHaveURL(/\/configure\/alarm-group\/\d+\/disarmed\/alarm-zone$/);
  const zone = page.getByTestId('alarm-zone');
  await expect(zone.getByTestId('alarm-zone-state')).toHaveText('Disarmed');
  await expect(zone.getByTestId('alarm-zone-inputs')).toContainText('Loading Bay contact');
  expect((await trip('input.active')).eventCode).toBe(2001);
  await trip('input.normal');

  await zone.getByTestId('alarm-zone-arm').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Zone armed' }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/armed\/alarm-zone$/);
  await expect(zone.getByTestId('alarm-zone-state')).toHaveText('Armed');
  await expect(zone.getByTestId('alarm-zone-since')).toContainText('admin');
  await shot(page, 'alarm-zone-armed-1440');

  const intrusion = await trip('input.active');
  expect(intrusion.eventCode).toBe(2005);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Alarms', exact: true }).click();
  const alarm = page.locator(`[data-testid="alarm-row"][data-alarm-id="${intrusion.id}"]`);
  await expect(alarm).toBeVisible();
  await expect(alarm).toContainText('Intrusion');
  await trip('input.normal'); // back to normal: the alarm is processed by the system

  await page.goBack();
  await expect(zone.getByTestId('alarm-zone-state')).toHaveText('Armed');
  await zone.getByTestId('alarm-zone-disarm').click();
  // the dialog's button: `.last()` of the buttons named Disarm, taken before the dialog had opened, was the zone's own
  // (clicked again, the dialog stayed open and the test waited for its toast until it timed out: a CI flake)
  await page.getByRole('alertdialog').getByRole('button', { name: 'Disarm', exact: true }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Zone disarmed' }).first()).toBeVisible();
  await expect(page).toHaveURL(/\/disarmed\/alarm-zone$/);
  expect((await trip('input.active')).eventCode).toBe(2001);
  await trip('input.normal');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'alarm-zone-390');
});
