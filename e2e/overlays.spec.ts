// Blueprint's overlays out of the console's start (issue 48), each still there when asked for: the hotkeys dialog ("?"
// wherever a component registered hotkeys, Blueprint's Table2 on every list; the console's HotkeysProvider fetches its
// code the first time it opens: scripts/startChunks.ts lazyHotkeysDialog), the sidebar's drawer on a phone, the
// display settings' drawer (src/app/Shell.tsx: drawn once first opened).
import { expect, test } from './fixtures';
import { signIn } from './helpers';

test('"?" over a list opens the hotkeys dialog with the table\'s keys, Escape closes it, and it opens again', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await signIn(page, 'harbour', { at: '/manage/identities' });
  await expect(page.getByTestId('identities-list')).toBeVisible();
  await expect(page.locator('.bp6-table-container').first()).toBeVisible();
  expect(fetched.filter((p) => /\/assets\/hotkeysDialog-[^/]*\.js$/.test(p))).toEqual([]);
  await page.locator('#gh-main').focus();
  const dialog = page.getByRole('dialog').filter({ has: page.locator('.bp6-hotkey-column') });
  await page.keyboard.press('Shift+?'); // as a keyboard sends it: "?" with Shift
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('.bp6-hotkey').first()).toBeVisible();
  expect(fetched.filter((p) => /\/assets\/hotkeysDialog-[^/]*\.js$/.test(p))).toHaveLength(1);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.keyboard.press('Shift+?'); // as a keyboard sends it: "?" with Shift
  await expect(dialog).toBeVisible();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu opens the sidebar in its drawer, a link in it opens its screen and closes it, and it opens again', async ({ page }) => {
    await signIn(page, 'operator');
    await expect(page.getByTestId('dash-counts')).toBeVisible();
    const drawer = page.locator('.gh-sidebar-drawer');
    await expect(drawer).toHaveCount(0);
    await page.getByTestId('sidebar-toggle').click();
    await expect(drawer).toBeVisible();
    await drawer.getByRole('link', { name: 'Alarms', exact: true }).click();
    await expect(page.getByTestId('alarms-screen')).toBeVisible();
    await expect(drawer).toBeHidden();
    await page.getByTestId('sidebar-toggle').click();
    await expect(drawer).toBeVisible();
  });
});

test('the display settings open in their drawer, close with Escape, and open again', async ({ page }) => {
  await signIn(page, 'operator');
  await expect(page.getByTestId('dash-counts')).toBeVisible();
  await expect(page.getByTestId('settings-drawer')).toHaveCount(0);
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-drawer')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('settings-drawer')).toBeHidden();
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-drawer')).toBeVisible();
});
