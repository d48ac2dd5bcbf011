// Does a DevTools client change the cold dashboard's module evaluation (issue 48)? A tool beside bench/firstload.ts,
// not a bench (it judges nothing and writes no result). It serves a build (BENCH_DIST, default .tmp/dist-bench; built
// when missing) from the real server over a fresh PGlite and opens `/` with a stored token in Debian's chromium,
// recorded by chromium's own startup tracing (--trace-startup: no DevTools protocol involved), two ways, alternated:
//   alone:  chromium started headless on the URL, no remote-debugging client at all;
//   client: chromium started headless on about:blank with --remote-debugging-port, Playwright attached over CDP with
//           the Network domain enabled (as bench/firstload.ts does), then sent to the URL.
// Each run has a fresh profile whose localStorage holds the token (written by a throw-away Playwright context that
// opens only /api/health, so no script of the console is cached). For each load it prints the page renderer's longest
// module evaluation (`v8.evaluateModule`, processor time), the V8 re-parses for source positions inside it
// (`V8.CollectSourcePositions`), the requests sent during it, and the longest task.
//   npx tsx bench/firstloadTrace.ts [runs]      (BENCH_TRACE_KEEP=/tmp/t keeps each trace as /tmp/t-<way>-<time>.json)
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIST, benchChromium, benchChromiumPath, benchDb, benchServer } from './lib';

const RUNS = Number(process.argv[2] ?? 3);
/** How long chromium records from its start: the cold dashboard is drawn well before it. */
const TRACE_S = Number(process.env.BENCH_TRACE_S ?? 8);
// BENCH_TRACE_CATEGORIES adds some (`disabled-by-default-v8.cpu_profiler`: V8's sampling profile, still with no client)
const CATEGORIES = ['toplevel', 'v8', 'disabled-by-default-v8.compile', 'devtools.timeline', 'blink.user_timing', process.env.BENCH_TRACE_CATEGORIES ?? '']
  .filter(Boolean)
  .join(',');
const ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update'];

export interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string; requestMethod?: string } };
}

export interface EvaluationFigures {
  /** The longest module evaluation of the page's main thread: by the clock, and its processor time (ms). */
  evaluationMs: number;
  evaluationCpuMs: number;
  /** V8's re-parses for source positions inside it: how many, and their time by the clock (ms). */
  reparses: number;
  reparseMs: number;
  /** Requests the page sent while it ran. */
  requestsDuring: string[];
  /** The most processor time of any task of the page's main thread (ms). */
  longestTaskCpuMs: number;
}

/** The page's figures in a chromium trace: the page's renderer is the one that sent the request for `origin`'s `/`. */
export function evaluationFigures(events: TraceEvent[], origin: string): EvaluationFigures | null {
  const ms = (us: number | undefined) => Math.round((us ?? 0) / 100) / 10;
  const asked = events.find((e) => e.name === 'ResourceSendRequest' && e.args?.data?.url?.startsWith(origin));
  if (!asked) return null;
  const mains = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === asked.pid).map((e) => e.tid),
  );
  const own = events.filter((e) => e.pid === asked.pid && mains.has(e.tid));
  const within = (outer: TraceEvent) => (e: TraceEvent) => (e.ts ?? 0) >= (outer.ts ?? 0) && (e.ts ?? 0) <= (outer.ts ?? 0) + (outer.dur ?? 0);
  const evaluations = own.filter((e) => e.ph === 'X' && e.name === 'v8.evaluateModule');
  const longest = evaluations.reduce<TraceEvent | null>((x, e) => (!x || (e.tdur ?? 0) > (x.tdur ?? 0) ? e : x), null);
  const reparses = longest ? own.filter((e) => e.ph === 'X' && e.name === 'V8.CollectSourcePositions' && within(longest)(e)) : [];
  const requests = longest ? own.filter((e) => e.name === 'ResourceSendRequest' && within(longest)(e)) : [];
  const tasks = own.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask');
  return {
    evaluationMs: ms(longest?.dur),
    evaluationCpuMs: ms(longest?.tdur),
    reparses: reparses.length,
    reparseMs: ms(reparses.reduce((n, e) => n + (e.dur ?? 0), 0)),
    requestsDuring: requests.map((e) => new URL(e.args!.data!.url!).pathname),
    longestTaskCpuMs: ms(Math.max(0, ...tasks.map((e) => e.tdur ?? 0))),
  };
}

/** Chromium's startup trace of one cold load of `url`, with or without a DevTools client; the profile holds `token`
 *  (none: a profile that never opened the console's origin). bench/firstload.ts judges its longest task on it. */
export async function traced(url: string, token: string | null, client: boolean): Promise<TraceEvent[]> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'gh-trace-'));
  const file = join(profile, 'trace.json');
  try {
    // the token in the profile's localStorage, from a page that loads none of the console's scripts
    if (token !== null) {
      const seed = await chromium.launchPersistentContext(join(profile, 'user'), { executablePath: benchChromiumPath, args: ARGS.slice(1) });
      const page = seed.pages()[0] ?? (await seed.newPage());
      await page.goto(new URL('/api/health', url).href);
      await page.evaluate((t) => localStorage.setItem('jwt', t), token);
      await seed.close();
    }
    const port = 9300 + Math.floor(Math.random() * 500);
    const args = [
      ...ARGS,
      `--user-data-dir=${join(profile, 'user')}`,
      `--trace-startup=${CATEGORIES}`,
      `--trace-startup-format=json`,
      `--trace-startup-file=${file}`,
      `--trace-startup-duration=${TRACE_S}`,
      ...(client ? [`--remote-debugging-port=${port}`, 'about:blank'] : [url]),
    ];
    const browser = spawn(benchChromiumPath, args, { stdio: 'ignore' });
    try {
      if (client) {
        let attached = null;
        for (let i = 0; i < 50 && !attached; i++) {
          attached = await chromium.connectOverCDP(`http://127.0.0.1:${port}`).catch(() => null);
          if (!attached) await new Promise((r) => setTimeout(r, 100));
        }
        if (!attached) throw new Error('no DevTools endpoint');
        const context = attached.contexts()[0];
        const page = context.pages()[0] ?? (await context.newPage());
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await page.goto(url);
      }
      // the file is written once the duration is over
      for (let i = 0; i < (TRACE_S + 30) * 10; i++) {
        await new Promise((r) => setTimeout(r, 100));
        if (!existsSync(file)) continue;
        try {
          const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
          if (process.env.BENCH_TRACE_KEEP) copyFileSync(file, `${process.env.BENCH_TRACE_KEEP}-${client ? 'client' : 'alone'}-${Date.now()}.json`);
          return events;
        } catch {
          // still being written
        }
      }
      throw new Error('chromium wrote no trace');
    } finally {
      const exited = browser.exitCode === null ? new Promise((r) => browser.once('exit', r)) : Promise.resolve();
      browser.kill();
      await exited;
    }
  } finally {
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
    } catch {
      // a renderer still closing its files: the temporary folder is left
    }
  }
}

async function main() {
  const built = await benchChromium('firstloadTrace'); // builds BENCH_DIST when missing
  await built?.close();
  const b = await benchDb();
  const server = await benchServer(b.db, { staticDir: BENCH_DIST, simulator: false });
  try {
    const token = await server.login('operator');
    const url = `${server.base}/`;
    for (let run = 0; run <= RUNS; run++) {
      for (const client of [false, true]) {
        const f = evaluationFigures(await traced(url, token, client), server.base);
        if (run === 0) continue; // warms the server and the disk cache, not counted
        console.log(`${client ? 'client' : 'alone '} run ${run}: ${JSON.stringify(f)}`);
      }
    }
  } finally {
    await server.close();
    await b.dispose();
  }
}

if (process.argv[1]?.endsWith('firstloadTrace.ts'))
  void main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
