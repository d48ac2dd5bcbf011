// Cold loads of the console timed with no DevTools client on the page (issue 48), for bench/firstload.ts. Playwright
// enables the Runtime domain on every page, and with it V8 captures deep stacks and re-parses the start's chunks
// (docs/BENCHMARKS.md): the cold dashboard's evaluation 3–4 times longer than in a user's browser. Here chromium runs
// with a remote-debugging port and one raw CDP connection to the browser only (the `ws` package, no Playwright):
//   - each load has a fresh browser context (an empty cache, as a cold load);
//   - the token is written into that context's localStorage from a page of the origin that runs no console script
//     (/api/health), through a session attached to that page alone, with the DOMStorage domain only, then closed;
//   - the console opens in a new page of the context to which no session is ever attached, while the browser records a
//     trace (browser-level Tracing: chromium's tracing service, no agent in the renderer);
//   - the time is the console's own user-timing mark (src/system/openingScreen.ts OPENING_SCREEN_READ_MARK: the
//     opening screen drawn with its first answers, after its frame and once the main thread is idle), counted from the
//     page's request for its document (before it chromium opens the new window's renderer: hundreds of milliseconds at
//     load, a cost of this way of opening a page); the longest task is the most processor time one task of that
//     page's main thread used (`toplevel`), up to the mark.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { benchChromiumPath } from './lib';

export const OPENING_SCREEN_READ_MARK = 'gatehouse:opening-screen-read'; // src/system/openingScreen.ts
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update'];
/** How long a load is recorded first (a load not done by then is made again, recorded twice as long). */
const FIRST_WINDOW_MS = 5_000;
/** The longest a cold load may take before it is counted as failed. */
const LOAD_LIMIT_MS = 30_000;

export interface NoClientLoad {
  /** From the page's request for its document to the console's mark (ms). */
  interactiveMs: number;
  /** The most processor time of one task of the page's main thread until the mark (ms). */
  longestTaskCpuMs: number;
}

export interface TraceEvent {
  ph: string;
  name: string;
  cat?: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { documentLoaderURL?: string; navigationId?: string; startTime?: number; url?: string } };
}

/** One raw CDP connection to the browser (flattened sessions). */
class Cdp {
  private seq = 0;
  private waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private listeners = new Set<(method: string, params: any, sessionId?: string) => void>();
  constructor(private ws: WebSocket) {
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
        method?: string;
        params?: unknown;
        sessionId?: string;
      };
      if (m.id !== undefined) {
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (m.error) w?.reject(new Error(m.error.message));
        else w?.resolve(m.result);
      } else if (m.method) for (const l of this.listeners) l(m.method, m.params, m.sessionId);
    });
  }
  static async open(url: string): Promise<Cdp> {
    const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 512 * 1024 * 1024 });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new Cdp(ws);
  }
  send<T = any>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = ++this.seq;
    this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }
  on(l: (method: string, params: any, sessionId?: string) => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  close() {
    this.ws.close();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `runs` cold loads of `base + path` with `token` stored, in one chromium, each in a fresh context. */
export async function noClientLoads(base: string, path: string, token: string, runs: number): Promise<NoClientLoad[]> {
  const profile = mkdtempSync(join(tmpdir(), 'gh-noclient-'));
  const port = 9800 + Math.floor(Math.random() * 150);
  const browser = spawn(benchChromiumPath, [...ARGS, `--user-data-dir=${profile}`, `--remote-debugging-port=${port}`, 'about:blank'], { stdio: 'ignore' });
  let cdp: Cdp | null = null;
  try {
    for (let i = 0; i < 100 && !cdp; i++) {
      const v = await fetch(`http://127.0.0.1:${port}/json/version`)
        .then((r) => r.json() as Promise<{ webSocketDebuggerUrl: string }>)
        .catch(() => null);
      if (v) cdp = await Cdp.open(v.webSocketDebuggerUrl);
      else await sleep(100);
    }
    if (!cdp) throw new Error('chromium opened no DevTools endpoint');
    const out: NoClientLoad[] = [];
    for (let run = 0; run < runs; run++) out.push(await oneLoad(cdp, base, path, token));
    return out;
  } finally {
    cdp?.close();
    const exited = browser.exitCode === null ? new Promise((r) => browser.once('exit', r)) : Promise.resolve();
    browser.kill();
    await exited;
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // a renderer still closing its files: the temporary folder is left
    }
  }
}

async function oneLoad(cdp: Cdp, base: string, path: string, token: string, window = FIRST_WINDOW_MS): Promise<NoClientLoad> {
  const { browserContextId } = await cdp.send<{ browserContextId: string }>('Target.createBrowserContext', { disposeOnDetach: false });
  try {
    // the token, from a page of the origin that runs none of the console's code
    const { targetId: seedId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url: `${base}/api/health`, browserContextId });
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: seedId, flatten: true });
    await cdp.send('DOMStorage.enable', {}, sessionId);
    const origin = new URL(base).origin;
    for (let i = 0; ; i++) {
      try {
        await cdp.send('DOMStorage.setDOMStorageItem', { storageId: { securityOrigin: origin, isLocalStorage: true }, key: 'jwt', value: token }, sessionId);
        break;
      } catch (e) {
        if (i > 50) throw e;
        await sleep(100); // the page has not committed its origin yet
      }
    }
    await cdp.send('Target.closeTarget', { targetId: seedId });

    // the console, recorded by the browser's tracing service for `window` ms; no session on its page
    const events: TraceEvent[] = [];
    const stop = cdp.on((method, params: { value?: TraceEvent[] }) => {
      if (method === 'Tracing.dataCollected' && params.value) events.push(...params.value);
    });
    const complete = new Promise<void>((resolve) => {
      const off = cdp.on((method) => {
        if (method === 'Tracing.tracingComplete') {
          off();
          resolve();
        }
      });
    });
    await cdp.send('Tracing.start', { categories: 'blink.user_timing,toplevel,devtools.timeline', transferMode: 'ReportEvents' });
    const url = `${base}${path}`;
    const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url, browserContextId, newWindow: true });
    await sleep(window);
    await cdp.send('Tracing.end');
    await complete;
    const found = noClientFigures(events, url);
    stop();
    await cdp.send('Target.closeTarget', { targetId });
    if (found) return found;
    if (window * 2 > LOAD_LIMIT_MS) throw new Error(`no ${OPENING_SCREEN_READ_MARK} mark within ${window} ms of opening ${url}`);
  } finally {
    await cdp.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
  }
  return oneLoad(cdp, base, path, token, window * 2); // a load slower than the window: again, with a window twice as long
}

/** The load's figures in its trace: its navigation (the first of `url`), the console's mark of that navigation. */
export function noClientFigures(events: TraceEvent[], url: string): NoClientLoad | null {
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL === url);
  const navigationId = nav?.args?.data?.navigationId;
  if (!nav || !navigationId) return null;
  const mark = events.find((e) => e.name === OPENING_SCREEN_READ_MARK && e.args?.data?.navigationId === navigationId);
  if (!mark || mark.args?.data?.startTime === undefined) return null;
  // counted from the page's request for its document: before it, chromium opened the new window's renderer (hundreds
  // of milliseconds at load, a cost of this way of opening a page, not of the console)
  const asked = events.find((e) => e.name === 'ResourceSendRequest' && e.pid === nav.pid && e.args?.data?.url === url);
  if (!asked) return null;
  // the page's main thread: the thread its navigation start was recorded on
  const own = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask');
  const upTo = (mark.ts ?? 0) + 1;
  // BENCH_NO_CLIENT_TIMELINE=1: each request and task over 15 ms of processor time until the mark, from navigation start
  if (process.env.BENCH_NO_CLIENT_TIMELINE) {
    const t = (e: TraceEvent) => String(Math.round(((e.ts ?? 0) - (nav.ts ?? 0)) / 1000)).padStart(5);
    for (const e of events.filter((x) => x.pid === nav.pid && (x.ts ?? 0) >= (nav.ts ?? 0) && (x.ts ?? 0) <= upTo)) {
      const d = e.args?.data;
      if (e.name === 'ResourceSendRequest' || e.name === 'ResourceFinish') console.log(t(e), e.name, (d?.url ?? '').replace(/^https?:\/\/[^/]+/, ''));
      else if (e.name === 'ThreadControllerImpl::RunTask' && e.tid === nav.tid && (e.tdur ?? 0) > 15000)
        console.log(t(e), 'task', Math.round((e.dur ?? 0) / 1000), 'ms', Math.round((e.tdur ?? 0) / 1000), 'cpu');
    }
  }
  const tasks = own.filter((e) => (e.ts ?? 0) >= (nav.ts ?? 0) && (e.ts ?? 0) <= upTo);
  return {
    interactiveMs: Math.round((mark.ts! - asked.ts!) / 1000),
    longestTaskCpuMs: Math.round(Math.max(0, ...tasks.map((e) => e.tdur ?? 0)) / 100) / 10,
  };
}

// a quick look on its own: npx tsx bench/firstloadNoClient.ts [runs]
if (process.argv[1]?.endsWith('firstloadNoClient.ts')) {
  const { benchChromium, benchDb, benchServer, BENCH_DIST } = await import('./lib');
  await (await benchChromium('firstloadNoClient'))?.close(); // builds BENCH_DIST when missing
  const b = await benchDb();
  const server = await benchServer(b.db, { staticDir: BENCH_DIST, simulator: false });
  try {
    const token = await server.login('operator');
    const loads = await noClientLoads(server.base, '/', token, Number(process.argv[2] ?? 5) + 1);
    console.log(JSON.stringify(loads.slice(1)));
  } finally {
    await server.close();
    await b.dispose();
  }
  process.exit(0);
}
