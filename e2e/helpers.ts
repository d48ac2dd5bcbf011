import { expect, type Page } from './fixtures';
import type { APIRequestContext, Request } from '@playwright/test';

/** The console's requests on their way, per page (the real-time connections under /ws/ aside). */
const onTheirWay = new WeakMap<Page, Set<Request>>();
export function trackRequests(page: Page): void {
  if (onTheirWay.has(page)) return;
  const set = new Set<Request>();
  onTheirWay.set(page, set);
  page.on('request', (r) => {
    if ((r.resourceType() === 'fetch' || r.resourceType() === 'xhr') && !new URL(r.url()).pathname.startsWith('/ws/')) set.add(r);
  });
  page.on('requestfinished', (r) => set.delete(r));
  page.on('requestfailed', (r) => set.delete(r));
}

/**
 * Before a client switch, what a user at the console does without thinking: the screen has finished loading. A switch
 * ends the old token at the server; a read already on its way under it is then refused and the console drops it in
 * silence (src/api/client.ts, refusedToken), but chromium logs the refusal (a 401), which the walks count as a failed
 * request. At most 10 s (a screen that keeps a request open is switched from anyway).
 */
export async function requestsSettled(page: Page): Promise<void> {
  const set = onTheirWay.get(page);
  const until = Date.now() + 10_000;
  while (set && set.size > 0 && Date.now() < until) await page.waitForTimeout(50);
}

export const PASSWORD = 'Gatehouse1!';

export interface SignInOptions {
  password?: string;
  /** Another server's address (a spec that starts its own); the worker's server when left out. */
  base?: string;
  /** The client to select first (by name), as the clients screen's Select does. */
  client?: string;
  /** Where the console opens; the dashboard (or the user's landing screen) when left out. */
  at?: string;
}

let signIns = 0;

/**
 * Signs `username` in and waits until the console shell is there: the token comes from the same login API the form
 * uses, and the console opens with it stored, as a reload of a signed-in console does (the session restores it, reads
 * the user and privileges, and stores them). The sign-in form itself is driven by `signInWithForm` and the specs of
 * sign-in, sign-out, the tour and the keyboard; everywhere else typing into it cost a page load and two seconds of
 * every test, and going to the first screen another.
 */
export async function signIn(page: Page, username: string, passwordOrOptions: string | SignInOptions = {}, base = '') {
  const o: SignInOptions = typeof passwordOrOptions === 'string' ? { password: passwordOrOptions, base } : { base, ...passwordOrOptions };
  // a relative address is the worker's server (fixtures.ts makes it the context's baseURL)
  const login = await page.request.post(`${o.base ?? ''}/idp/1.0/login`, { data: { username, password: o.password ?? PASSWORD } });
  expect(login.ok(), `sign-in of ${username}: ${login.status()} ${await login.text()}`).toBe(true);
  const origin = new URL(login.url()).origin;
  let token = (await login.json()).token as string;
  if (o.client) token = await selectClientByApi(page, origin, token, o.client);
  // stored once, on the first page of this origin that opens after this call (a later reload keeps what the console
  // has by then: a sign-out stays signed out)
  const once = `e2e-sign-in-${++signIns}`;
  const script = await page.addInitScript(
    ([t, k, where]) => {
      if (location.origin !== where || sessionStorage.getItem(k)) return;
      sessionStorage.setItem(k, '1');
      localStorage.setItem('jwt', t);
    },
    [token, once, origin],
  );
  await page.goto(`${origin}${o.at ?? '/'}`);
  // its work done: a tab kept for the next test (e2e/fixtures.ts) runs no script of this one's
  await script.dispose();
  // the screen asked for may answer outside the shell: Access denied (403) or Page Not Found (404)
  await expect(page.getByTestId('app-shell').or(page.getByTestId('forbidden')).or(page.getByTestId('not-found')).first()).toBeVisible();
  if (await page.getByTestId('app-shell').isVisible()) await skipTourIfShown(page);
}

async function selectClientByApi(page: Page, origin: string, token: string, name: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const clients = await (await page.request.get(`${origin}/central/1.0/clients?size=100`, { headers })).json();
  const client = (clients.items as Array<{ id: number; name: string }>).find((c) => c.name === name);
  expect(client, `client ${name}`).toBeTruthy();
  const r = await page.request.put(`${origin}/idp/1.0/me/client`, { headers, data: { clientId: client!.id } });
  expect(r.ok(), `select ${name}: ${r.status()}`).toBe(true);
  return (await r.json()).token as string;
}

/**
 * Opens `path` (an address of the worker's server) as an operator does once the console is running: inside it, the
 * router following history, without reloading the console. A page load costs 1.0-1.6 s of processor time (renderer,
 * raster threads, the server's answers to the boot's reads), a screen opened inside the console about half that
 * (2026-12-04), and the end-to-end run is bound by the processor.
 * Loaded as `page.goto` does, when it cannot be the same: the console is not running in the page (a new page, the
 * sign-in form, Page Not Found outside the shell), the address is another origin's, or the screen is kept open as a
 * view of the console (a tab), which shows what it read when it opened, where a load reads afresh. Resolves once the
 * router has drawn the address (the screen's view, Access denied, Page Not Found, a screen outside the shell, or the
 * address it was sent on to) and the screens it left are closed.
 */
export async function go(page: Page, path: string): Promise<void> {
  const current = page.url();
  if (!current.startsWith('http')) {
    await page.goto(path);
    return;
  }
  const target = new URL(path, current);
  const inside =
    new URL(current).origin === target.origin &&
    (await page.evaluate((p) => {
      const shell = document.querySelector('[data-testid="app-shell"]');
      if (!shell || !shell.checkVisibility()) return false;
      // a screen kept open as a view shows what it read when it opened: a load reads it afresh
      return !Array.from(document.querySelectorAll('[data-testid="view"]')).some((v) => v.getAttribute('data-view-path') === p);
    }, target.pathname));
  if (!inside) {
    await page.goto(path);
    return;
  }
  const to = target.pathname + target.search + target.hash;
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  // drawn (this address's view shown, or Access denied / Page Not Found, a screen outside the shell, or the router sent
  // it elsewhere: a redirect), and then alone, as after a load: the console keeps the screens it left mounted and
  // hidden (a tab's view keeps its scroll, filters and input), where a load starts with the one it opens; a locator of
  // the page would find their forms and buttons too. Their tabs are closed (a tab that is not the current one closes
  // without going anywhere), as an operator closes tabs; the tab bar then holds this screen's tab alone.
  await page.waitForFunction(
    (p) => {
      const shown = (el: Element | null) => !!el && el.checkVisibility() && el.getClientRects().length > 0;
      if (location.pathname !== p) return true; // sent elsewhere
      if (shown(document.querySelector('[data-testid="forbidden"]')) || shown(document.querySelector('[data-testid="not-found"]'))) return true;
      if (!shown(document.querySelector('[data-testid="app-shell"]'))) return true; // a screen outside the shell
      const views = Array.from(document.querySelectorAll('[data-testid="view"]'));
      if (!views.some((v) => v.getAttribute('data-view-path') === p && shown(v))) return false;
      // the tabs actor hears of the new screen after the paint: until its tab is the current one, closing the tab left
      // (still the current one there) would go back to it
      const tabs = Array.from(document.querySelectorAll('[data-testid="tab"]'));
      if (!tabs.some((t) => t.getAttribute('data-path') === p && t.querySelector('[aria-current="page"]'))) return false;
      const closing = ((window as unknown as { e2eClosing?: Set<string | null> }).e2eClosing ??= new Set());
      for (const tab of tabs)
        if (tab.getAttribute('data-path') !== p) {
          closing.add(tab.getAttribute('data-path'));
          (tab.querySelector('.gh-tab__close') as HTMLElement | null)?.click();
        }
      // gone: the views of every tab closed (a view kept with no tab cannot be closed: left)
      const left = views.filter((v) => v.getAttribute('data-view-path') !== p && closing.has(v.getAttribute('data-view-path')));
      if (left.length) return false;
      closing.clear();
      return true;
    },
    target.pathname,
    { polling: 'raf', timeout: 20_000 },
  );
}

/** Signs in through the real login form and waits until the console shell is there. */
export async function signInWithForm(page: Page, username: string, password = PASSWORD, base = '') {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
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
  // and every Select waits while the session is busy (reading the user after a sign-in): a look at the button at one
  // moment took a busy one for the current client's, clicked nothing, and the header kept "No client selected"
  const select = row.getByRole('button', { name: 'Select' });
  const current = row.getByText('Current', { exact: true });
  await expect(current.or(select.and(page.locator('button:enabled')))).toBeVisible();
  if (!(await current.isVisible())) {
    await requestsSettled(page);
    await select.click();
  }
  await expect(page.getByTestId('current-client')).toContainText(name);
}

/**
 * A picture of the screen for a person to look at (test-results/screens), at the widths a spec checks. CI has no one
 * to look at them: there they are taken only with E2E_SHOTS=1 (111 of them cost about a minute of every run).
 */
export async function shot(page: Page, name: string) {
  if (process.env.CI && !process.env.E2E_SHOTS) return;
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

/**
 * One API call to arrange data beside the screens, with the caller's headers (`bearer`); any answer of 300 or more fails
 * the test there, naming the call. Gives the answer's JSON.
 */
export async function apiCall(request: APIRequestContext, headers: Record<string, string>, method: string, path: string, data?: unknown) {
  const r = await request.fetch(path, { method, data, headers });
  expect(r.status(), `${method} ${path}`).toBeLessThan(300);
  return r.json();
}

/** Signs `username` in with `client` selected, and gives the token as request headers (to arrange data through the API). */
export async function signInTo(page: Page, username: string, client: string): Promise<{ authorization: string }> {
  await signIn(page, username, { client });
  return bearer(page);
}
