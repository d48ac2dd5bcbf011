// Helpers of the console-behaviour specs (client switch, sign-out, newcomer, feedback). The shared machine is often
// loaded well past its two cores while these run, so visible facts get more time here than the default 10 s.
import { expect as baseExpect, type Page } from './fixtures';
import { PASSWORD, requestsSettled, skipTourIfShown, trackRequests } from './helpers';

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
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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
  await requestsSettled(page);
  await page.getByTestId('client-switcher').click();
  await page.getByRole('menuitem', { name: new RegExp(name) }).click();
  await expect(page.getByTestId('current-client')).toContainText(name);
}

/**
 * Console errors, page errors, failed and refused requests while a user works, each with the user and the screen
 * (the newcomer's walk of every user and the route walk of the user who sees most use it).
 */
/** What the browser may legitimately report, each with its reason. */
const EXPECTED = [
  // §1/§7: the optional desktop companion and the card-reader connector are looked for on this computer; when
  // they are not running, Chrome itself logs the refused connection (the console cannot silence it). The
  // companion's schedule (one candidate per backoff step) is proved in e2e/feedback.spec.ts.
  {
    what: 'refused connection to a local device',
    test: (s: string) =>
      /127\.0\.0\.1:(478\d\d|51379|24680|18365)|localhost:(478\d\d|51379|24680|18365)/.test(s) && /ERR_CONNECTION_REFUSED|net::ERR_FAILED|failed/i.test(s),
  },
];

/** Anything here means the screen is still loading, refused or broken. */
export const SETTLED_AND_WHOLE = '[data-testid="view"]:visible [aria-busy="true"], [data-testid="forbidden"], [data-testid="error-boundary"]';

export interface Problem {
  user: string;
  where: string;
  what: string;
}

export function watchConsole(page: Page, problems: Problem[], who: () => string) {
  trackRequests(page);
  const expected = (s: string) => EXPECTED.some((e) => e.test(s));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = `${m.text()} @ ${m.location().url}`;
    if (!expected(text)) problems.push({ user: who(), where: page.url(), what: `console error: ${text}` });
  });
  page.on('pageerror', (e) => problems.push({ user: who(), where: page.url(), what: `page error: ${e.message}` }));
  page.on('response', (r) => {
    if (r.status() >= 400 && !expected(r.url())) problems.push({ user: who(), where: page.url(), what: `${r.status()} ${r.request().method()} ${r.url()}` });
  });
  page.on('requestfailed', (r) => {
    const failure = r.failure()?.errorText ?? '';
    // a request the console itself cancelled (leaving a screen aborts its fetches) is not a failure
    if (failure === 'net::ERR_ABORTED') return;
    if (!expected(`${r.url()} ${failure}`)) problems.push({ user: who(), where: page.url(), what: `request failed: ${r.url()} ${failure}` });
  });
}
