// Where the cold dashboard's main-thread time goes (issue 48), by source file: a tool beside bench/firstload.ts, not a
// bench (it judges nothing and writes no result). It builds the console with source maps (`.tmp/dist-profile`, or
// BENCH_DIST), serves it from the real server over a fresh PGlite like the bench, opens `/` in chromium with a stored
// token (the bench's "dashboard, cold"), records V8's sampling profile (100 µs) and chromium's `toplevel` trace until
// the dashboard's counts are on screen and the main thread is quiet, and prints the self time of each source file and
// package: over the whole load and inside its longest task (by processor time).
//   npx tsx bench/firstloadProfile.ts [runs]      (BENCH_SKIP_BUILD=1 reuses the build)
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import { benchChromiumPath, benchDb, benchServer } from './lib';

const DIST = process.env.BENCH_DIST ?? '.tmp/dist-profile';
const RUNS = Number(process.argv[2] ?? 3);
/** How long after the counts are on screen the load is still recorded (the charts come after them). */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 2_500);
/** Tasks of at least this much processor time are listed one by one, with where their time went. */
const LIST_TASK_CPU_MS = Number(process.env.BENCH_LIST_TASK_MS ?? 30);
const PAGE_MARK = 'gatehouse-firstload';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

const maps = new Map<string, TraceMap | null>();
function mapOf(url: string): TraceMap | null {
  if (!maps.has(url)) {
    const file = `${DIST}${new URL(url).pathname}.map`;
    maps.set(url, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : null);
  }
  return maps.get(url)!;
}

/** The source file (or package) a frame's code came from; with `fn`, the function and its line too. */
function sourceOf(f: ProfileNode['callFrame'], fn = false): string {
  if (!f.url) return f.functionName ? `(${f.functionName})` : '(program)';
  if (!f.url.includes('/assets/')) return f.url;
  const map = mapOf(f.url);
  if (!map) return new URL(f.url).pathname;
  const p = originalPositionFor(map, { line: f.lineNumber + 1, column: f.columnNumber });
  const src = p.source ?? new URL(f.url).pathname;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(src);
  const file = pkg ? `npm:${pkg[1]}` : src.replace(/^(\.\.\/)+/, '');
  return fn ? `${file} ${p.name ?? f.functionName ?? ''}:${p.line ?? '?'}` : file;
}

function add(to: Map<string, number>, key: string, us: number) {
  to.set(key, (to.get(key) ?? 0) + us);
}
const table = (m: Map<string, number>, n = 30) =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`)
    .join('\n');

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1' || !existsSync(`${DIST}/index.html`)) {
    execFileSync('npx', ['vite', 'build', '--outDir', DIST, '--emptyOutDir', '--sourcemap', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: benchChromiumPath, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const b = await benchDb();
  const server = await benchServer(b.db, { staticDir: DIST, simulator: false });
  const whole = new Map<string, number>();
  const longest = new Map<string, number>();
  const functions = new Map<string, number>();
  try {
    const token = await server.login('operator');
    for (let run = 0; run <= RUNS; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.addInitScript(`localStorage.setItem('jwt', ${JSON.stringify(token)})`);
      // the page's renderer is named by this mark in the trace (the browser's own WebUI renderer is left out)
      await page.addInitScript(`performance.mark(${JSON.stringify(PAGE_MARK)})`);
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
      await cdp.send('Profiler.start');
      await page.goto(`${server.base}/`);
      await page.locator('[data-testid=dash-counts]').waitFor({ timeout: 30_000 });
      // the charts are drawn once the counts are on screen and the main thread idle: their tasks are the load's too
      await page.evaluate((ms) => new Promise((r) => setTimeout(r, ms)), SETTLE_MS);
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      const trace = JSON.parse(String(await browser.stopTracing())) as { traceEvents: TraceEvent[] };
      await context.close();
      if (run === 0) continue; // warms the server and chromium, not counted
      const pagePid = trace.traceEvents.find((e) => e.name === PAGE_MARK)?.pid;
      const mains = new Set(
        trace.traceEvents
          .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && (pagePid === undefined || e.pid === pagePid))
          .map((e) => `${e.pid}:${e.tid}`),
      );
      const tasks = trace.traceEvents.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && mains.has(`${e.pid}:${e.tid}`));
      const listed = tasks.filter((e) => (e.tdur ?? 0) >= LIST_TASK_CPU_MS * 1000);
      const inListed = listed.map(() => new Map<string, number>());
      const top = tasks.reduce<TraceEvent | null>((x, e) => (!x || (e.tdur ?? 0) > (x.tdur ?? 0) ? e : x), null);
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      let t = profile.startTime;
      let inTop = 0;
      for (let i = 0; i < profile.samples.length; i++) {
        t += profile.timeDeltas[i];
        const dt = profile.timeDeltas[i + 1] ?? 0;
        const n = byId.get(profile.samples[i])!;
        const src = sourceOf(n.callFrame);
        if (src === '(idle)') continue;
        add(whole, src, dt);
        if (!src.startsWith('(')) add(functions, sourceOf(n.callFrame, true), dt);
        listed.forEach((e, k) => {
          if (t >= e.ts && t <= e.ts + (e.dur ?? 0))
            add(inListed[k], src.startsWith('npm:') || src.startsWith('(') ? src : src.split('/').slice(0, 3).join('/'), dt);
        });
        if (top && t >= top.ts && t <= top.ts + (top.dur ?? 0)) {
          add(longest, src, dt);
          inTop += dt;
        }
      }
      console.log(
        `run ${run}: longest task ${((top?.dur ?? 0) / 1000).toFixed(1)} ms (processor ${((top?.tdur ?? 0) / 1000).toFixed(1)} ms), sampled in it ${(inTop / 1000).toFixed(1)} ms`,
      );
      // each task of LIST_TASK_CPU_MS or more: when it began (after the profile's start), its processor time, what ran in it
      listed.forEach((e, k) => {
        const what = [...inListed[k].entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 6)
          .map(([src, us]) => `${src} ${(us / 1000).toFixed(0)}`)
          .join(', ');
        console.log(
          `  at ${((e.ts - profile.startTime) / 1000).toFixed(0)} ms: ${((e.tdur ?? 0) / 1000).toFixed(1)} ms processor (${((e.dur ?? 0) / 1000).toFixed(1)} by the clock): ${what}`,
        );
      });
    }
  } finally {
    await browser.close();
    await server.close();
    await b.dispose();
  }
  const groups = (m: Map<string, number>) => {
    const g = new Map<string, number>();
    for (const [k, us] of m) add(g, k.startsWith('npm:') || k.startsWith('(') ? k : k.split('/').slice(0, 2).join('/'), us);
    return g;
  };
  console.log(`\nself time over ${RUNS} loads, by source file\n${table(whole, 40)}`);
  console.log(`\nby package and folder\n${table(groups(whole), 25)}`);
  console.log(`\nby function (file, name, line)\n${table(functions, 50)}`);
  console.log(`\ninside the longest task of each load, by source file\n${table(longest, 40)}`);
  console.log(`\ninside the longest task, by package and folder\n${table(groups(longest), 25)}`);
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
