// Issue 10, item 7: a newcomer's shift. Every demo user signs in (one after another, in the same browser, as
// operators share a front-desk computer), opens every entry of their sidebar and signs out. Any console error,
// page error, failed request or toast left over from another user or client fails the run.
import { test, type Page } from './fixtures';
import { expect, signOut, submitSignIn, watchConsole, SETTLED_AND_WHOLE, type Problem } from './console.helpers';
import { requestsSettled, selectClient, skipTourIfShown } from './helpers';

const USERS = ['admin', 'operator', 'reception', 'hr', 'auditor', 'harbour'] as const;
/**
 * In CI each user opens the first FEW entries of their sidebar (the route walk in e2e/a11y.spec.ts opens every
 * screen once as the user who sees most, watching for the same errors); the full matrix, every entry of every user,
 * is `E2E_MATRIX=1` (`npm run test:matrix`), run before a change is handed in.
 */
const MATRIX = !!process.env.E2E_MATRIX;
const FEW = 4;

/** Every toast on screen now; a toast naming another user or client is a leftover. */
async function toastTexts(page: Page): Promise<string[]> {
  return page.getByTestId('toast').allInnerTexts();
}

async function visitSidebar(page: Page, user: string, problems: Problem[], foreign: RegExp | null) {
  const links = page.getByTestId('sidebar').getByRole('link');
  const all = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href') ?? ''));
  expect(all.length).toBeGreaterThan(0);
  const hrefs = MATRIX ? all : all.slice(0, FEW);
  for (const href of hrefs) {
    await page.getByTestId('sidebar').locator(`a[href="${href}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${href.replace(/[/.]/g, '\\$&')}(\\?|$)`));
    await expect(page.getByTestId('app-shell')).toBeVisible();
    // settled (no lazy screen or list still loading) and neither refused nor broken: one look, not three
    await expect(page.locator(SETTLED_AND_WHOLE)).toHaveCount(0);
    if (foreign) {
      for (const t of await toastTexts(page)) if (foreign.test(t)) problems.push({ user, where: href, what: `leftover toast: ${t}` });
    }
  }
  return hrefs;
}

test('every demo user opens every sidebar entry without an error, a failed request or a leftover toast', async ({ page }) => {
  test.setTimeout(15 * 60_000);
  const problems: Problem[] = [];
  let current = '';
  watchConsole(page, problems, () => current);
  const visited: Record<string, number> = {};
  let previous: string | null = null;

  for (const user of USERS) {
    current = user;
    await submitSignIn(page, user);
    // nothing the previous user was shown may follow the next one in (looked at before this user does anything:
    // skipping the tour raises this user's own toast)
    if (previous) {
      const left = await toastTexts(page);
      for (const t of left) problems.push({ user, where: 'after sign-in', what: `toast left over from ${previous}: ${t}` });
    }
    await skipTourIfShown(page);
    if (user === 'admin') {
      // the administrator of both clients works in each in turn; toasts of one do not follow into the other
      await selectClient(page, 'Northwind Logistics');
      visited[`${user}@Northwind`] = (await visitSidebar(page, user, problems, null)).length;
      // as a user would: the screen finished loading before the switch (a read on its way would be refused, see there)
      await requestsSettled(page);
      await page.getByTestId('client-switcher').click();
      await page.getByRole('menuitem', { name: /Harbour Health/ }).click();
      await expect(page.getByTestId('current-client')).toContainText('Harbour Health');
      visited[`${user}@Harbour`] = (await visitSidebar(page, user, problems, /Northwind|NW-/)).length;
    } else {
      visited[user] = (await visitSidebar(page, user, problems, previous ? new RegExp(previous, 'i') : null)).length;
    }
    await signOut(page);
    previous = user;
  }

  test.info().annotations.push({ type: 'visited', description: JSON.stringify(visited) });
  expect(problems, problems.map((p) => `${p.user} ${p.where}: ${p.what}`).join('\n')).toEqual([]);
});
