// Issue 29: a save the server refuses puts the focus on the first field it names (src/ui/FocusForm.tsx), on a
// hand-made form (batch add of visitor credentials) and a generated one (a leave category). The walk of every form of
// the route table is e2e/formfocus.walk.spec.ts.
import { expect, test } from './fixtures';
import { selectClient, signIn, go } from './helpers';

test('a save the server refuses (400 with violations naming fields) puts the focus on the first field it names', async ({ page }) => {
  await signIn(page, 'admin');
  await selectClient(page, 'Northwind Logistics');
  // a box of visitor cards, then the same box again: the numbers are taken, which only the server knows
  const prefix = `K${Date.now().toString(36).slice(-4).toUpperCase()}-`;
  for (const again of [false, true]) {
    await go(page, '/visitor/credentials/batch-add');
    await page.getByLabel('Prefix').fill(prefix);
    await page.getByLabel('First number').fill('1');
    await page.getByLabel('How many').fill('3');
    await page.getByLabel('Digits').fill('3');
    const refused = page.waitForResponse((r) => r.request().method() === 'POST' && /batch/.test(r.url()));
    await page.getByTestId('form-save').click();
    expect((await refused).status()).toBe(again ? 400 : 201);
    if (!again) await expect(page).toHaveURL(/\/visitor\/credentials$/);
  }
  await expect(page.getByLabel('First number')).toBeFocused();
  await expect(page.getByTestId('visitor-credential-batch')).toContainText(`First number takes numbers already in use: ${prefix}001`);

  // a leave category's code already taken: refused by the server on Code, which takes the focus from Save
  await go(page, '/attendance/leave-category/add');
  await page.getByLabel('Name').fill(`Parental leave ${prefix}`);
  await page.getByLabel('Code').fill('AL');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('leaveCategories-form')).toContainText('is already the code of another leave category');
  await expect(page.getByLabel('Code')).toBeFocused();
});
