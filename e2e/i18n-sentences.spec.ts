// Issue 10, languages: a sentence the server builds with values ("Still used by 2 divisions: …") reaches a Chinese
// console in Chinese, with its count kept and its words translated (src/i18n/sentences.ts), never as the server's
// English.
import { expect, test } from './fixtures';
import { shot, signInTo } from './helpers';

test('zh-CN: a refusal the server words with values is said in Chinese, its numbers kept', async ({ page }) => {
  test.setTimeout(120_000);
  const auth = await signInTo(page, 'admin', 'Northwind Logistics');
  expect((await page.request.put('/idp/1.0/me/settings', { headers: auth, data: { locale: 'zh-CN' } })).status()).toBe(200);
  try {
    await page.goto('/configure/division');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    const tree = page.getByTestId('divisions');
    const security = tree.locator('.bp6-tree-node-content').filter({ has: page.locator('[data-testid="division"][aria-label="Security"]') });
    await security.getByTestId('division-delete').click();
    await page.getByRole('button', { name: /^(删除|Delete)$/ }).click();
    const toast = page.getByTestId('toast').filter({ hasText: /仍被/ }).first();
    await expect(toast).toBeVisible();
    await expect(toast).toHaveText(/仍被 \d+ 个\S+使用：请先修改或删除/);
    await expect(toast).not.toContainText('Still used');
    await expect(tree.locator('[data-testid="division"][aria-label="Security"]')).toBeVisible(); // kept
    await shot(page, 'i18n-sentence-zh-1440');
  } finally {
    await page.request.put('/idp/1.0/me/settings', { headers: auth, data: { locale: 'en' } });
  }
});
