import { expect, type Page } from './fixtures';

export const PASSWORD = 'Gatehouse1!';

/** Sign in through the real login form and wait until the console shell is there. */
export async function signIn(page: Page, username: string, password = PASSWORD, base = '') {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('app-shell')).toBeVisible();
  await skipTourIfShown(page);
}

/** New users see the guided tour once; tests of other screens skip it (which is remembered per user). */
export async function skipTourIfShown(page: Page) {
  // The tour opens in the same render as the shell after a sign-in (src/app/useTourAtSignIn.ts: the session's
  // signed-in snapshot starts it), so two frames after the shell is up it is there or it is not coming. (This
  // waited 1.5 s for a tour on every sign-in of a user who had skipped it already: minutes of every e2e run.)
  await expect(page.getByTestId('app-shell')).toBeVisible();
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
  const skip = page.getByRole('button', { name: 'Skip tour' });
  if (!(await skip.isVisible())) return; // no tour for this user
  await skip.click();
  await expect(skip).toBeHidden();
}

/** Multi-tenant users pick a client first (§6: the dashboard needs a selected client). */
export async function selectClient(page: Page, name: string) {
  await page.goto('/manage/clients');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  // the selection is remembered on the server: an earlier spec may have left this client selected already,
  // and the current client's Select button is disabled
  const select = row.getByRole('button', { name: 'Select' });
  if (await select.isEnabled()) await select.click();
  await expect(page.getByTestId('current-client')).toContainText(name);
}

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}.png` });
}

/** Pick `text` in the catalogue reference picker of form field `field` (the list's search box has the focus). */
export async function pick(page: Page, field: string, text: string) {
  await page.locator(`[id="field-${field}"]`).click();
  // the search box of the list that just opened has the focus (a list closing a moment ago may still be in the page)
  await page.locator('.bp6-popover input:focus').fill(text);
  await page.getByRole('option', { name: text }).first().click();
  await expect(page.locator(`[id="field-${field}"]`)).toContainText(text);
}

/** The signed-in console's token as request headers, for arranging data through the API beside the screens. */
export async function bearer(page: Page): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('jwt'))}` };
}

/** Signs `username` in, selects `client`, and gives the token as request headers (to arrange data through the API). */
export async function signInTo(page: Page, username: string, client: string): Promise<{ authorization: string }> {
  await signIn(page, username);
  await selectClient(page, client);
  return bearer(page);
}
