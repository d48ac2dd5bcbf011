// The first load of the sign-in page (issue 10), in chromium (Debian's, as in playwright.config.ts), against the real
// server over a fresh PGlite data dir, serving a production build (`vite build --outDir .tmp/dist-bench`, shared
// with the browser bench; BENCH_SKIP_BUILD=1 reuses it):
//   bytes: every response of a cold load of /login (fresh browser context, empty cache) as chromium's network layer
//     counts it (CDP Network.loadingFinished encodedDataLength: what crossed the wire, headers included), summed
//     per kind (script, stylesheet, font, document, other), plus which scripts were fetched (no section's chunk
//     may be among them).
//   interactive: from navigation start until the sign-in button is on screen and enabled and the main thread has
//     no long task after it began (the later of the two), read in the page (performance.now, PerformanceObserver
//     'longtask'); median and worst of RUNS cold loads.
//   warm: a second load in the same context: the hashed assets come from the cache (immutable), only index.html
//     is asked for again.
// Targets: script < 300 KB compressed, interactive < 1 s on localhost. → bench/results/firstload.json
import type { Browser } from 'playwright-core';
import { BENCH_DIST, benchChromium, benchChromiumPath, benchDb, benchServer, summary, writeResult } from './lib';

export const FIRST_LOAD_JS_TARGET_BYTES = 300 * 1024;
export const INTERACTIVE_TARGET_MS = 1000;
const DIST = BENCH_DIST;
const RUNS = Number(process.env.BENCH_FIRSTLOAD_RUNS ?? 7);
/** Chunks of the sections: none of them belongs on the sign-in page. */
const SECTION_CHUNK = /\/assets\/(monitor|manage|report|visitor|configure|general|ReplayScreen|ListScreen|paths)-[^/]*\.js$/;

// in the page before any of its scripts: when the sign-in button is usable, and the long tasks
const WATCH = `(() => {
  const w = window.__firstLoad = { ready: null, longTasks: [] };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) w.longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    const b = document.querySelector('[data-testid=signin-submit]');
    if (b && !b.disabled && b.getClientRects().length) { w.ready = performance.now(); return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})()`;

interface Load {
  bytes: Record<string, number>; requests: Record<string, number>; scripts: string[];
  readyMs: number; interactiveMs: number; longTasks: number; longestTaskMs: number; domContentLoadedMs: number; encodings: string[];
}

async function load(browser: Browser, url: string, warmUp = false): Promise<{ cold: Load; warm: Load | null }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(WATCH);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let seen = new Map<string, { url: string; type: string; encoding: string; fromCache: boolean }>();
  let bytes: Record<string, number> = {};
  let requests: Record<string, number> = {};
  cdp.on('Network.responseReceived', (e) => {
    const h = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    seen.set(e.requestId, { url: e.response.url, type: e.type, encoding: h['content-encoding'] ?? 'identity', fromCache: Boolean(e.response.fromDiskCache) });
  });
  cdp.on('Network.requestServedFromCache', (e) => { const r = seen.get(e.requestId); if (r) r.fromCache = true; });
  cdp.on('Network.loadingFinished', (e) => {
    const r = seen.get(e.requestId);
    if (!r || r.fromCache || e.encodedDataLength === 0) return;
    const kind = r.type === 'Script' ? 'script' : r.type === 'Stylesheet' ? 'stylesheet' : r.type === 'Font' ? 'font' : r.type === 'Document' ? 'document' : 'other';
    bytes[kind] = (bytes[kind] ?? 0) + e.encodedDataLength;
    requests[kind] = (requests[kind] ?? 0) + 1;
  });
  const measure = async (): Promise<Load> => {
    await page.waitForFunction(() => (window as unknown as { __firstLoad: { ready: number | null } }).__firstLoad.ready !== null, null, { timeout: 30_000 });
    // long tasks that began before the button was ready may end after it: wait for the main thread to be quiet
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    const m = await page.evaluate(() => {
      const w = (window as unknown as { __firstLoad: { ready: number; longTasks: [number, number][] } }).__firstLoad;
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { ready: w.ready, longTasks: w.longTasks, dcl: nav.domContentLoadedEventEnd };
    });
    const lastEnd = Math.max(0, ...m.longTasks.map(([s, d]) => s + d));
    const done = [...seen.values()].filter((r) => !r.fromCache);
    return {
      bytes, requests,
      scripts: done.filter((r) => r.type === 'Script').map((r) => new URL(r.url).pathname),
      encodings: [...new Set(done.filter((r) => r.type === 'Script' || r.type === 'Stylesheet').map((r) => r.encoding))],
      readyMs: Math.round(m.ready), interactiveMs: Math.round(Math.max(m.ready, lastEnd)),
      longTasks: m.longTasks.length, longestTaskMs: Math.round(Math.max(0, ...m.longTasks.map(([, d]) => d))),
      domContentLoadedMs: Math.round(m.dcl),
    };
  };
  try {
    await page.goto(url);
    const cold = await measure();
    if (!warmUp) return { cold, warm: null };
    seen = new Map(); bytes = {}; requests = {};
    await page.reload();
    return { cold, warm: await measure() };
  } finally {
    await context.close();
  }
}

export async function firstload() {
  const browser = await benchChromium('firstload');
  if (!browser) return;
  const b = await benchDb();
  const server = await benchServer(b.db, { staticDir: DIST, simulator: false });
  try {
    const url = `${server.base}/login`;
    await load(browser, url); // warms the server's file cache and chromium's code paths; not counted
    const runs: Load[] = [];
    let warm: Load | null = null;
    for (let i = 0; i < RUNS; i++) {
      const r = await load(browser, url, i === 0);
      runs.push(r.cold);
      warm ??= r.warm;
    }
    const first = runs[0];
    const interactive = summary(runs.map((r) => r.interactiveMs));
    const sectionChunks = first.scripts.filter((s) => SECTION_CHUNK.test(s));
    const scriptBytes = first.bytes.script ?? 0;
    return writeResult('firstload', {
      chromium: benchChromiumPath, console: DIST, url: '/login', runs: RUNS,
      transferredBytes: first.bytes, requests: first.requests, scripts: first.scripts, encodings: first.encodings,
      sectionChunksOnSignIn: sectionChunks,
      interactiveMs: interactive,
      buttonReadyMs: summary(runs.map((r) => r.readyMs)),
      domContentLoadedMs: summary(runs.map((r) => r.domContentLoadedMs)),
      longTasks: { max: Math.max(...runs.map((r) => r.longTasks)), longestMs: Math.max(...runs.map((r) => r.longestTaskMs)) },
      warmReload: warm && { transferredBytes: warm.bytes, requests: warm.requests, interactiveMs: warm.interactiveMs },
      target: { scriptBytesLessThan: FIRST_LOAD_JS_TARGET_BYTES, interactiveP50LessThanMs: INTERACTIVE_TARGET_MS, sectionChunksOnSignIn: 0 },
      met: scriptBytes < FIRST_LOAD_JS_TARGET_BYTES && interactive.p50 < INTERACTIVE_TARGET_MS && sectionChunks.length === 0,
    });
  } finally {
    await browser.close();
    await server.close();
    await b.dispose();
  }
}
