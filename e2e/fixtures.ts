// What every spec imports instead of '@playwright/test': the same API, with one server per Playwright worker.
// Two workers run spec files side by side (playwright.config.ts), each against a server and database of its own,
// started fresh with the demo data when the worker starts and stopped when it ends, so no spec sees another
// worker's changes. `baseURL` (and so `page.goto('/…')`, `request` and `browser.newContext()`) points at it.
//
// A test's `page` is a tab the worker keeps from one test to the next, and its `context` that tab's browser context.
// In between, every other page of the context is closed, the cookies cleared, and for each origin the tab opened it
// goes to a document of that origin that runs no code (the server's 404 for a missing asset: the console unloads, its
// socket, timers and memory with it), where the tab's session storage and the origin's local storage, IndexedDB, Cache
// Storage and service workers are cleared. So each test still boots a console of its own with nothing stored but what
// it stores (`signIn` opens it with a page load, as before); what carries over is the tab's renderer process, with the
// console's code compiled in it, and the HTTP cache. A test that signs in and opens one screen cost 3.3-3.8 s of
// processor time with a new context and tab, 1.8-1.9 s in the kept tab (2026-12-05, load 9-11, two runs of seven
// tests each way); the tab sent on to about:blank in between went to a new renderer process and saved nothing.
// A test that changes the tab or the context beyond a page load (a route, an init script it keeps, a binding, emulated
// media, extra headers, the clock, permissions, offline mode, geolocation, a CDP session, a default timeout, a listener
// of its own) or that fails leaves them to be closed: the next test gets a new context and tab. The viewport is put
// back as the options say and the mouse moved off the page. A spec whose subject is the first load (what a browser
// that never saw the console fetches) asks for a new context (`test.use({ freshContext: true })`); contexts are kept
// per options (`test.use({ viewport })` gets one of its own).
import { test as base, type Browser, type BrowserContext, type BrowserContextOptions, type CDPSession, type Disposable, type Page } from '@playwright/test';
import { ownServer, WORKER_ENV, type OwnServer } from './server';

export * from '@playwright/test';

interface Kept {
  context: BrowserContext;
  /** The tab handed to each test in turn. */
  page: Page;
  cdp: CDPSession;
  /** The origins its pages and frames opened: their storage is cleared after each test. */
  origins: Set<string>;
  /** The test changed the context or the tab beyond a page load (see below): both are closed, not handed on. */
  changed: boolean;
  /** Init scripts added during the test and not disposed of (signIn disposes of its own once the console opened). */
  scripts: Set<Disposable>;
}

/** Methods whose effect outlives a page load: a test calling one leaves the context and the tab to be closed. */
const CHANGES_CONTEXT = [
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'unrouteAll',
  'addInitScript',
  'exposeBinding',
  'exposeFunction',
  'grantPermissions',
  'clearPermissions',
  'setOffline',
  'setGeolocation',
  'setExtraHTTPHeaders',
  'setHTTPCredentials',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
  'newCDPSession',
] as const;
const CHANGES_PAGE = [
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'unrouteAll',
  'exposeBinding',
  'exposeFunction',
  'emulateMedia',
  'setExtraHTTPHeaders',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
] as const;
const CHANGES_CLOCK = ['install', 'fastForward', 'runFor', 'pauseAt', 'resume', 'setFixedTime', 'setSystemTime'] as const;
/** Everything the browser stores for an origin but its HTTP cache (a tab's session storage is cleared apart). */
const STORAGE = 'cookies,local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,shared_storage,storage_buckets';

async function keep(browser: Browser, options: BrowserContextOptions): Promise<Kept> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const kept: Kept = { context, page, cdp, origins: new Set(), changed: false, scripts: new Set() };
  context.on('page', (p) => p.on('framenavigated', (f) => f.url().startsWith('http') && kept.origins.add(new URL(f.url()).origin)));
  page.on('framenavigated', (f) => f.url().startsWith('http') && kept.origins.add(new URL(f.url()).origin));
  const marked = (target: object, names: readonly string[]) => {
    const t = target as Record<string, unknown>;
    for (const name of names) {
      const own = t[name] as (...a: unknown[]) => unknown;
      t[name] = (...args: unknown[]) => {
        kept.changed = true;
        return own.apply(target, args);
      };
    }
  };
  marked(context, CHANGES_CONTEXT);
  marked(context.clock, CHANGES_CLOCK);
  marked(page, CHANGES_PAGE);
  // the tab's init scripts: kept until disposed of (signIn's is disposed of once the console opened)
  const addInitScript = page.addInitScript.bind(page) as (...a: unknown[]) => Promise<Disposable>;
  (page as unknown as { addInitScript: (...a: unknown[]) => Promise<Disposable> }).addInitScript = async (...args) => {
    const script = await addInitScript(...args);
    kept.scripts.add(script);
    const dispose = script.dispose.bind(script);
    script.dispose = async () => {
      kept.scripts.delete(script);
      await dispose();
    };
    return script;
  };
  return kept;
}

/** Every listener on an emitter (a page, a context), by event: more after a test than before are the test's own. */
function listeners(o: object): number {
  const emitter = o as { eventNames(): (string | symbol)[]; listenerCount(e: string | symbol): number };
  return emitter.eventNames().reduce((n, e) => n + emitter.listenerCount(e), 0);
}

/**
 * Readies the kept tab for the next test: the console unloaded, the other pages closed, the cookies and every origin's
 * storage cleared, the viewport as the options say, the mouse off the page. False when it could not (then closed).
 */
async function empty(kept: Kept, viewport: BrowserContextOptions['viewport']): Promise<boolean> {
  try {
    for (const p of kept.context.pages()) if (p !== kept.page) await p.close();
    for (const origin of kept.origins) {
      // the tab's session and local storage of that origin, from a document of it that runs no code: the server's
      // 404 for an asset it does not have (any other address opens the console, which would store things again)
      await kept.page.goto(`${origin}/assets/e2e-nothing-here`);
      await kept.page.evaluate(() => {
        sessionStorage.clear();
        localStorage.clear();
      });
      await kept.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: STORAGE });
    }
    kept.origins.clear();
    // (the tab stays on that last document: sent on to about:blank, the next load of the console went to a new
    // renderer process and cost as much as a new tab's)
    await kept.context.clearCookies();
    const size = kept.page.viewportSize();
    if (viewport && (size?.width !== viewport.width || size?.height !== viewport.height)) await kept.page.setViewportSize(viewport);
    await kept.page.mouse.move(-1, -1);
    return kept.context.pages().length === 1 && !kept.page.isClosed();
  } catch {
    return false;
  }
}

export const test = base.extend<{ freshContext: boolean }, { server: OwnServer; keptContexts: Map<string, Kept> }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring
    async ({}, use, workerInfo) => {
      const server = await ownServer(`worker${workerInfo.parallelIndex}`, WORKER_ENV);
      await use(server);
      await server.dispose();
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
  freshContext: [false, { option: true }],
  keptContexts: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring
    async ({}, use) => {
      const kept = new Map<string, Kept>();
      await use(kept);
      for (const k of kept.values()) await k.context.close().catch(() => {});
    },
    { scope: 'worker' },
  ],
  // (_combinedContextOptions: Playwright's own fixture of the context options the config and test.use give)
  context: async ({ browser, freshContext, keptContexts, _combinedContextOptions: options }, use, testInfo) => {
    if (freshContext) {
      const context = await browser.newContext(options);
      await use(context);
      await context.close();
      return;
    }
    const key = JSON.stringify(options);
    let kept = keptContexts.get(key);
    if (!kept) keptContexts.set(key, (kept = await keep(browser, options)));
    const before = [listeners(kept.context), listeners(kept.page)];
    await use(kept.context);
    const reusable =
      testInfo.status === testInfo.expectedStatus &&
      !kept.changed &&
      kept.scripts.size === 0 &&
      listeners(kept.context) === before[0] &&
      listeners(kept.page) === before[1] &&
      (await empty(kept, options.viewport));
    if (!reusable) {
      keptContexts.delete(key);
      await kept.context.close().catch(() => {});
    }
  },
  page: async ({ context, freshContext, keptContexts, _combinedContextOptions: options }, use) => {
    await use(freshContext ? await context.newPage() : keptContexts.get(JSON.stringify(options))!.page);
  },
});

// Playwright's own fixture (boxed, not in its types): the context options of the config and test.use, combined
declare module '@playwright/test' {
  interface PlaywrightTestArgs {
    _combinedContextOptions: BrowserContextOptions;
  }
}
