// Helpers of the console-behaviour specs (client switch, sign-out, newcomer, feedback). The shared machine is often
// loaded well past its two cores while these run, so visible facts get more time here than the default 10 s.
import { expect as baseExpect, type Page } from './fixtures';
import { PASSWORD, skipTourIfShown } from './helpers';

export const expect = baseExpect.configure({ timeout: 30_000 });

export async function signInAs(page: Page, username: string) {
  await submitSignIn(page, username);
  await skipTourIfShown(page);
}

/** Signs in through the form and waits for the shell, before anything else happens (a tour may be showing). */
export async function submitSignIn(page: Page, username: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('app-shell')).toBeVisible();
  await expect(page.getByTestId('user-menu')).toBeVisible();
}

export async function signOut(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Username')).toBeVisible();
}

/** The administrator's last client is remembered on the server: select this one unless it already is. */
export { selectClient } from './helpers';

/** Through the header's client switcher. */
export async function switchClient(page: Page, name: string) {
  await page.getByTestId('client-switcher').click();
  await page.getByRole('menuitem', { name: new RegExp(name) }).click();
  await expect(page.getByTestId('current-client')).toContainText(name);
}
