// The first load and the security headers in the browser (issue 10): the sign-in page arrives compressed, cached for
// good and without any section's code; a section's chunk comes when it is opened; and the console's content
// security policy lets every main screen work (STOMP over SockJS, the local companion and card connector probes,
// lazy chunks, Blueprint) without a single violation, for an administrator, an operator and a receptionist.
import { expect, test, type Page, type Response } from './fixtures';
import { signIn } from './helpers';

// walks through many screens: on the shared 2-core machine each screen can take seconds
test.slow();
// what a browser that never saw the console fetches: a context of its own, not the worker's kept one (e2e/fixtures.ts)
test.use({ freshContext: true });

const SECTION_CHUNK = /\/assets\/(monitor|manage|report|visitor|configure|general|ReplayScreen|ListScreen)-[^/]*\.js$/;
const ALL_ICONS_CHUNK = /\/assets\/paths-[^/]*\.js$/;

function responses(page: Page) {
  const seen: Response[] = [];
  page.on('response', (r) => seen.push(r));
  return seen;
}

/** Every CSP violation of every document the page loads (the listener is installed again on each navigation). */
async function cspViolations(page: Page) {
  const found: string[] = [];
  await page.exposeBinding('__cspViolation', (_src, v: string) => {
    found.push(v);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) found.push(`console: ${m.text()}`);
  });
  return found;
}

test('the sign-in page loads brotli-compressed, immutable assets and no section code; a section loads when opened', async ({ page }) => {
  const seen = responses(page);
  await page.goto('/login');
  await expect(page.getByTestId('signin-submit')).toBeEnabled();

  const doc = seen.find((r) => r.request().resourceType() === 'document')!;
  expect(doc.headers()['cache-control']).toBe('no-cache');
  expect(doc.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(doc.headers()['x-content-type-options']).toBe('nosniff');
  const assets = seen.filter((r) => new URL(r.url()).pathname.startsWith('/assets/'));
  const code = assets.filter((r) => /\.(js|css)$/.test(new URL(r.url()).pathname));
  expect(code.length).toBeGreaterThan(1);
  for (const r of code) {
    expect(r.headers()['content-encoding'], r.url()).toBe('br');
    expect(r.headers()['cache-control'], r.url()).toBe('public, max-age=31536000, immutable');
  }
  const scripts = code.map((r) => new URL(r.url()).pathname).filter((p) => p.endsWith('.js'));
  expect(scripts.filter((p) => SECTION_CHUNK.test(p))).toEqual([]);
  expect(scripts.filter((p) => ALL_ICONS_CHUNK.test(p))).toEqual([]); // Blueprint's chunk of every icon
  expect(assets.filter((r) => /\.(woff2?|ttf|eot)$/.test(r.url())).map((r) => r.url())).toEqual([]); // nor the icon font

  await signIn(page, 'operator');
  const before = seen.length;
  await page.getByTestId('sidebar').getByRole('link', { name: 'Alarms', exact: true }).click();
  await expect(page.getByTestId('alarms-screen')).toBeVisible();
  expect(
    seen
      .slice(before)
      .map((r) => new URL(r.url()).pathname)
      .filter((p) => /\/assets\/monitor-[^/]*\.js$/.test(p)),
  ).toHaveLength(1);
});

test('an administrator goes through the main screens with no content security policy violation', async ({ page }) => {
  const violations = await cspViolations(page);
  await signIn(page, 'admin', { client: 'Northwind Logistics' });
  const sidebar = page.getByTestId('sidebar');
  for (const title of ['Dashboard', 'Identities', 'Clients', 'Operator sessions', 'Activity report', 'Event report', 'Alarms', 'Events']) {
    await sidebar.getByRole('link', { name: title, exact: true }).click();
    await expect(page).toHaveTitle(new RegExp(title));
    await expect(page.getByTestId('page-loading')).toHaveCount(0);
  }
  await expect(page.getByTestId('socket-status').filter({ visible: true })).toHaveText(/connected/i); // STOMP over SockJS, same origin
  await page.goto('/manage/identities/add');
  await expect(page.getByTestId('identities-form')).toBeVisible({ timeout: 30_000 });
  await page.goto('/monitor/replay');
  await expect(page.getByTestId('page-loading')).toHaveCount(0);
  expect(violations).toEqual([]);
});

test('an operator goes through the monitor, doors and lists with no content security policy violation', async ({ page }) => {
  const violations = await cspViolations(page);
  await signIn(page, 'operator');
  const sidebar = page.getByTestId('sidebar');
  for (const title of ['Alarms', 'Events', 'Doors', 'Identities', 'Service account sessions', 'Event report']) {
    await sidebar.getByRole('link', { name: title, exact: true }).click();
    await expect(page).toHaveTitle(new RegExp(title));
    await expect(page.getByTestId('page-loading')).toHaveCount(0);
  }
  // the header's companion probe has asked the loopback ports by now (offline here: nothing listens)
  await expect(page.getByTestId('companion-indicator')).toBeVisible();
  expect(violations).toEqual([]);
});

test('a receptionist opens the visitor screens with no content security policy violation', async ({ page }) => {
  const violations = await cspViolations(page);
  await signIn(page, 'reception', { at: '/visitor/register' });
  await expect(page.getByTestId('visitors-form')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('sidebar').getByRole('link', { name: 'Visitor management', exact: true }).click();
  await expect(page.getByTestId('page-loading')).toHaveCount(0);
  expect(violations).toEqual([]);
});

test("the cold dashboard's page is laid out in the browser's frames, never forced by a script inside a task (issue 48)", async ({ page, browser }) => {
  // Reading a measure (scrollHeight, offsetLeft, scrollWidth) or setting a scroll position lays the whole page out at
  // once, inside the script's task: Blueprint's TextArea, animated Tabs and measuring Tag did so in React's commits,
  // 12-25 ms of the cold dashboard's longest tasks each. Chromium's trace gives such a layout the script's stack.
  await signIn(page, 'operator', { at: '/profile' });
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.stack'] });
  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.locator('[data-testid^="door-count-"]').first()).toBeVisible();
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  // (the console's own scripts: the test's own looks at the page, Playwright's injected ones, have no address)
  const ours = (f: StackFrame) => f.url.includes('/assets/');
  const forced = trace.traceEvents
    .filter((e) => (e.name === 'Layout' || e.name === 'UpdateLayoutTree') && (e.args?.beginData?.stackTrace ?? e.args?.stackTrace ?? []).some(ours))
    .map((e) => {
      const stack = e.args?.beginData?.stackTrace ?? e.args?.stackTrace ?? [];
      return `${e.name} forced by ${stack
        .slice(0, 4)
        .map((f) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}:${f.columnNumber}`)
        .join(' < ')}`;
    });
  expect(forced).toEqual([]);
});

interface TraceEvent {
  name: string;
  args?: { beginData?: { stackTrace?: StackFrame[] }; stackTrace?: StackFrame[] };
}
interface StackFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
