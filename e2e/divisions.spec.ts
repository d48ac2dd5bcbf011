// Divisions (issue 12): the tree on its own screen; a division added inside another from the tree, moved by choosing
// where it sits, refused when moved into itself (on the field), a division in use kept with what uses it said, and
// an unused one deleted — every step said in a toast, the tree following.
import { expect, test, type Page } from './fixtures';
import { shot, signIn } from './helpers';

/** A division's own row in the tree (its name, counts and buttons), and its branch (the row with what is inside). */
const row = (page: Page, name: string) =>
  page
    .getByTestId('divisions')
    .locator('.bp6-tree-node-content')
    .filter({ has: page.locator(`[data-testid="division"][aria-label="${name}"]`) });
const branch = (page: Page, name: string) => row(page, name).locator('xpath=..');
async function placeUnder(page: Page, name: string) {
  const value = await page
    .locator('#field-parentId option')
    .filter({ hasText: new RegExp(`^\\s*${name}$`) })
    .getAttribute('value');
  await page.locator('#field-parentId').selectOption(value!);
}
const toast = (page: Page, text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text }).first();

test('divisions: add inside, move, refuse a move into itself, keep one in use, delete an unused one', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const name = `Night desk ${stamp}`;
  await signIn(page, 'admin', { client: 'Northwind Logistics' });
  await page.getByTestId('sidebar').getByRole('link', { name: 'Divisions', exact: true }).click();
  const tree = page.getByTestId('divisions');
  await expect(tree.locator('[data-testid="division"][aria-label="Headquarters"]')).toContainText('Top');
  await expect(row(page, 'Security').getByTestId('division-inside')).toHaveText('2 inside');

  // Add inside Security: the form opens with Security chosen
  await row(page, 'Security').getByTestId('division-add-inside').click();
  await expect(page).toHaveURL(/\/configure\/division\/add\?parentId=\d+$/);
  await expect(page.locator('#field-parentId option:checked')).toHaveText(/Security/);
  await page.getByLabel('Name').fill(name);
  await page.getByTestId('form-save').click();
  await expect(toast(page, 'Division saved')).toBeVisible();
  await expect(page).toHaveURL(/\/configure\/division$/);
  await expect(branch(page, 'Security').locator(`[aria-label="${name}"]`)).toBeVisible();
  await expect(row(page, 'Security').getByTestId('division-inside')).toHaveText('3 inside');
  await shot(page, 'divisions-1440');

  // move it under Operations: the tree follows
  await tree.locator(`[data-testid="division"][aria-label="${name}"]`).getByTestId('division-edit').click();
  await placeUnder(page, 'Operations');
  await page.getByTestId('form-save').click();
  await expect(toast(page, 'Division saved')).toBeVisible();
  await expect(branch(page, 'Operations').locator(`[aria-label="${name}"]`)).toBeVisible();
  await expect(branch(page, 'Security').locator(`[aria-label="${name}"]`)).toHaveCount(0);

  // Operations into Warehouse (one of its own): refused on the field, the typed name kept
  await tree.locator('[data-testid="division"][aria-label="Operations"]').getByTestId('division-edit').click();
  await page.getByLabel('Name').fill(`Operations ${stamp}`);
  await placeUnder(page, 'Warehouse');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('divisions-form')).toContainText('cannot be the division itself or one inside it');
  await expect(page.getByLabel('Name')).toHaveValue(`Operations ${stamp}`);
  await page.getByTestId('form-cancel').click();
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page).toHaveURL(/\/configure\/division$/);

  // Security still holds divisions and identities: kept, and the reason said
  await row(page, 'Security').getByTestId('division-delete').click();
  await expect(page.getByTestId('division-delete-question')).toContainText('Security');
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, /Still used by/)).toBeVisible();
  await expect(tree.locator('[data-testid="division"][aria-label="Security"]')).toBeVisible();

  // the new one is unused: deleted
  await row(page, name).getByTestId('division-delete').click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(toast(page, 'Division deleted')).toBeVisible();
  await expect(tree.locator(`[data-testid="division"][aria-label="${name}"]`)).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'divisions-390');
});
