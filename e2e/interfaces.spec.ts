// Interfaces (issue 12): the boards the controllers find on their buses are offered on the add screen; Use fills
// the form (controller, bus address, type, serial number, a name); saved, the board leaves the found list, shows in
// the list, and its timing and supervision are set on its own settings page (a value out of range named on its field).
import { expect, test } from './fixtures';
import { shot, signIn } from './helpers';

test('an interface board found on a controller bus is added, and its settings are kept in range', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'admin', { client: 'Northwind Logistics' });
  await page.getByTestId('sidebar').getByRole('link', { name: 'Interfaces', exact: true }).click();
  await page.getByTestId('interfaces').getByTestId('add-button').click();
  await expect(page).toHaveURL(/\/hardware\/interface\/pre-add$/);
  const board = page.getByTestId('discovered-board').filter({ hasText: 'NW-CTRL-02' }).filter({ hasText: 'I/O board' });
  await expect(board).toBeVisible();
  const serial = (await board.locator('td').nth(3).innerText()).trim();
  await shot(page, 'interface-pre-add-1440');
  await board.getByTestId('discovered-use').click();
  await expect(page.locator('#field-busAddress')).toHaveValue('2');
  await expect(page.locator('#field-kind')).toHaveValue('io');
  await expect(page.locator('#field-serialNumber')).toHaveValue(serial);
  await expect(page.locator('[id="field-controllerId"]')).toContainText('NW-CTRL-02');
  await expect(page.locator('#field-name')).toHaveValue('NW-CTRL-02 I/O board 2');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Interface saved' }).first()).toBeVisible();
  const row = page.getByTestId('interfaces').getByRole('row').filter({ hasText: 'NW-CTRL-02 I/O board 2' });
  await expect(row).toBeVisible();

  // a second board at the same address of that controller is refused on the field
  await page.getByTestId('interfaces').getByTestId('add-button').click();
  await expect(page.getByTestId('discovered-board').filter({ hasText: serial })).toHaveCount(0);
  await page.locator('#field-name').fill('Duplicate board');
  await page.locator('[id="field-controllerId"]').click();
  await page.locator('.bp6-popover input:focus').fill('NW-CTRL-02');
  await page.getByRole('option', { name: 'NW-CTRL-02' }).first().click();
  await page.locator('#field-busAddress').fill('2');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('interfaces-form')).toContainText('Bus address is already taken on this controller (by NW-CTRL-02 I/O board 2)');
  await page.getByTestId('form-cancel').click();
  await page.getByRole('button', { name: 'Discard changes' }).click();

  // its settings: a poll too fast is named on its field; a good one is kept
  await page.getByTestId('interfaces').getByRole('row').filter({ hasText: 'NW-CTRL-02 I/O board 2' }).getByTestId('row-link').click();
  await expect(page).toHaveURL(/\/hardware\/interface\/settings\/\d+$/);
  await page.locator('#field-pollMs').fill('10');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('interfaceSettings-form')).toContainText('at least 50');
  await page.locator('#field-pollMs').fill('500');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Interface settings saved' }).first()).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('jwt'));
  const saved = (await (await page.request.get('/event/manage/interface-settings?q=', { headers: { authorization: `Bearer ${token}` } })).json()).items.find(
    (x: { name: string }) => x.name === 'NW-CTRL-02 I/O board 2',
  );
  expect(saved).toMatchObject({ pollMs: 500, offlineAfterS: 10, supervised: true });
});
