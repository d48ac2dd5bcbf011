// The console in chromium (Debian's, as in playwright.config.ts) against a server started here over a fresh
// PGlite data dir, serving a console built for the bench (`vite build --outDir .tmp/dist-bench`):
//   alarm-to-screen: the page itself POSTs /api/test/simulate (door.forced) and a MutationObserver notes when that
//     alarm's row is in /monitor/alarms; p50/p99 over ALARM_SAMPLES alarms. Target p99 < 250 ms.
//   events on screen: /monitor/events while events pour in; rows rendered per second (MutationObserver) and the
//     longest main-thread task (PerformanceObserver 'longtask'). Three sources: the in-server hardware simulator at a
//     high rate (every event persisted, then published: the whole path; it decides each swipe, so it is slower than
//     real controllers), the device simulator (scripts/deviceSimulator.ts: 50 virtual controllers of the tenant send
//     2,000 events/s in batches through the device interface, POST /api/devices/events, as a site's controllers do:
//     persisted, then published), and the server's publish path driven at 2,000 events/s (the screen's own capacity,
//     whatever the database manages). Target 2,000 events/s, no task > 50 ms. The device simulator and the publish
//     path run 1.5 s before and after the 10 s that are counted (EDGE_S): a rate on screen, not cut by the latency
//     of the events still on their way when the source stops.
// → bench/results/browser.json
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { DESTINATIONS, REPLAY_OVERRIDE_KEY, STORAGE } from '../contract';
import { provisionDeviceKeys, runDeviceSimulator } from '../scripts/deviceSimulator';
import { DEMO_PASSWORD } from '../server/db/seed';
import { BENCH_DIST, benchChromium, benchChromiumPath, benchDb, benchServer, publisherOf, summary, writeResult } from './lib';

export const ALARM_TARGET_P99_MS = 250;
export const SCREEN_TARGET_PER_S = 2000;
export const LONG_TASK_LIMIT_MS = 50;
const DIST = BENCH_DIST;
const ALARM_SAMPLES = 60;
const WINDOW_S = 10;
/** A steady source runs this long before and after the counted window: the rate on screen is counted while events
 *  flow, not cut short by the ones still on their way when the source stops (~300 of 20,000 at 2,000/s). */
const EDGE_S = 1.5;

/** Counts the STOMP MESSAGE frames for /events the page receives (SockJS batches them in one WebSocket frame). */
const COUNT_EVENT_FRAMES = `(() => {
  window.__eventFrames = 0;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (typeof e.data === 'string') window.__eventFrames += e.data.split('destination:/events\\\\n').length - 1;
      });
    }
  };
})()`;

async function signIn(page: Page, base: string, username: string) {
  await page.addInitScript(COUNT_EVENT_FRAMES);
  // BENCH_REPLAY=always|never: the session replay draw (§9, one session in ten records its journal) made for the
  // run, to measure a recording console (finding causes); by default the draw is the console's own
  const replay = process.env.BENCH_REPLAY;
  if (replay === 'always' || replay === 'never')
    await page.addInitScript(`localStorage.setItem(${JSON.stringify(REPLAY_OVERRIDE_KEY)}, ${JSON.stringify(replay)})`);
  await page.goto(`${base}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill('Gatehouse1!');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('app-shell').waitFor();
  const skip = page.getByRole('button', { name: 'Skip tour' });
  try {
    await skip.waitFor({ state: 'visible', timeout: 1500 });
    await skip.click();
  } catch {
    /* no tour */
  }
}

/** Counts event rows added to the events table and the longest task while `run` goes on. */
async function watchEvents(page: Page, run: () => Promise<void>, steady = false) {
  // a string, not a function: tsx would wrap named functions in a helper the page does not have
  await page.evaluate(`(() => {
    const b = window.__bench = { added: 0, distinct: 0, longest: 0, longTasks: 0, frames: 0 };
    const seen = new WeakSet();
    // every row element inserted counts as added; a new element is a newly rendered event, the same element
    // inserted again is a row React moved (an event that came again moves to the top)
    new MutationObserver((ms) => {
      for (const m of ms) for (const n of m.addedNodes) if (n.getAttribute && n.getAttribute('data-testid') === 'event-row') {
        b.added++;
        if (!seen.has(n)) { seen.add(n); b.distinct++; }
      }
    }).observe(document.querySelector('[data-testid=events-table] tbody'), { childList: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) { b.longTasks++; b.longest = Math.max(b.longest, e.duration); }
    }).observe({ type: 'longtask' });
    const frame = () => { b.frames++; requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  })()`);
  // BENCH_PROFILE=1: a CPU profile of the page during the run, its heaviest functions printed (finding causes)
  const cdp = process.env.BENCH_PROFILE === '1' ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  // BENCH_TRACE=1: each long task of the page, with what its time went to (finding causes)
  const tracer = process.env.BENCH_TRACE === '1' ? await page.context().newCDPSession(page) : null;
  const traced: TraceEvent[] = [];
  if (tracer) {
    tracer.on(
      'Tracing.dataCollected' as never,
      ((d: { value: TraceEvent[] }) => {
        traced.push(...d.value);
      }) as never,
    );
    await tracer.send('Tracing.start', {
      categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,v8',
      transferMode: 'ReportEvents',
    } as never);
  }
  type Counts = { added: number; distinct: number; frames: number; received: number };
  const counts = () =>
    page.evaluate(() => {
      const w = window as unknown as { __bench: { added: number; distinct: number; frames: number }; __eventFrames: number };
      return { added: w.__bench.added, distinct: w.__bench.distinct, frames: w.__bench.frames, received: w.__eventFrames };
    });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let from: Counts, to: Counts, seconds: number;
  if (steady) {
    // the source runs EDGE_S + WINDOW_S + EDGE_S; what reached the screen in the middle WINDOW_S is counted
    const running = run();
    await sleep(EDGE_S * 1000);
    from = await counts();
    const t = performance.now();
    await sleep(WINDOW_S * 1000);
    to = await counts();
    seconds = (performance.now() - t) / 1000;
    await running;
  } else {
    from = await counts();
    const t = performance.now();
    await run();
    seconds = (performance.now() - t) / 1000;
    to = await counts();
  }
  if (cdp) printProfile((await cdp.send('Profiler.stop')).profile as unknown as Profile);
  if (tracer) {
    const done = new Promise((r) => tracer.once('Tracing.tracingComplete' as never, r as never));
    await tracer.send('Tracing.end');
    await done;
    printLongTasks(traced);
  }
  // BENCH_HEAP=1: what the page's heap holds after the run (finding causes: a major GC's time is its live objects)
  if (process.env.BENCH_HEAP === '1') await printHeap(page);
  const m = await page.evaluate(() => (window as unknown as { __bench: { longest: number; longTasks: number } }).__bench);
  const distinct = to.distinct - from.distinct;
  return {
    seconds: Number(seconds.toFixed(1)),
    ...(steady ? { countedAfterSeconds: EDGE_S } : {}),
    receivedPerSecond: Math.round((to.received - from.received) / seconds),
    rowElementsAdded: to.added - from.added,
    eventsRendered: distinct,
    renderedPerSecond: Math.round(distinct / seconds),
    framesPerSecond: Math.round((to.frames - from.frames) / seconds),
    longTasks: m.longTasks,
    longestTaskMs: Math.round(m.longest),
  };
}

/** An operator's /monitor/events on `base`, its socket connected. */
async function openEventsScreen(chrome: import('playwright-core').Browser, base: string) {
  const page = await chrome.newPage();
  await signIn(page, base, 'operator');
  await page.goto(`${base}/monitor/events`);
  await page.getByTestId('events-table').waitFor();
  await page
    .getByTestId('socket-status')
    .filter({ hasText: /connected/i })
    .waitFor();
  return page;
}
/** The events screen's target, met when `share` of the offered rate is on screen and no task is too long. */
const screenVerdict = (m: { renderedPerSecond: number; longestTaskMs: number }, share: number) => ({
  target: { renderedPerSecondAtLeast: SCREEN_TARGET_PER_S, longestTaskAtMostMs: LONG_TASK_LIMIT_MS },
  met: m.renderedPerSecond >= SCREEN_TARGET_PER_S * share && m.longestTaskMs <= LONG_TASK_LIMIT_MS,
});

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tid: number;
  pid: number;
  ts: number;
  args?: { data?: { functionName?: string; url?: string } };
}
/** The page's live heap by constructor (a heap snapshot after a full GC): the ten largest by count and by size. */
async function printHeap(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  let text = '';
  cdp.on(
    'HeapProfiler.addHeapSnapshotChunk' as never,
    ((c: { chunk: string }) => {
      text += c.chunk;
    }) as never,
  );
  await cdp.send('HeapProfiler.enable' as never);
  await cdp.send('HeapProfiler.collectGarbage' as never);
  await cdp.send('HeapProfiler.takeHeapSnapshot' as never, { reportProgress: false } as never);
  const snap = JSON.parse(text) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const f = snap.snapshot.meta.node_fields;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((k) => f.indexOf(k));
  const types = snap.snapshot.meta.node_types[0];
  const by = new Map<string, { n: number; bytes: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += f.length) {
    const type = types[snap.nodes[i + typeAt]];
    const key = type === 'object' || type === 'closure' ? `${type} ${snap.strings[snap.nodes[i + nameAt]]}` : type;
    const e = by.get(key) ?? { n: 0, bytes: 0 };
    e.n++;
    e.bytes += snap.nodes[i + sizeAt];
    total += snap.nodes[i + sizeAt];
    by.set(key, e);
  }
  const top = (k: 'n' | 'bytes') =>
    [...by]
      .sort((a, b) => b[1][k] - a[1][k])
      .slice(0, 12)
      .map(([name, e]) => `    ${e.n} × ${name}: ${(e.bytes / 1024).toFixed(0)} KB`)
      .join('\n');
  console.log(
    `heap: ${(total / 1048576).toFixed(1)} MB live in ${snap.nodes.length / f.length} objects\n  by count:\n${top('n')}\n  by size:\n${top('bytes')}`,
  );
  await cdp.detach();
}

function printLongTasks(events: TraceEvent[]) {
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && (e.dur ?? 0) > 50_000);
  console.log(`trace: ${events.length} events, ${tasks.length} tasks over 50 ms`);
  for (const t of tasks.slice(0, 12)) {
    const inner = events.filter(
      (e) => e.tid === t.tid && e.pid === t.pid && e.ph === 'X' && e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0),
    );
    const by = new Map<string, number>();
    for (const e of inner) {
      const k =
        e.name === 'FunctionCall' || e.name === 'EventDispatch' || e.name === 'TimerFire'
          ? `${e.name}(${e.args?.data?.functionName ?? ''} ${(e.args?.data?.url ?? '').split('/').pop()})`
          : e.name;
      by.set(k, (by.get(k) ?? 0) + (e.dur ?? 0) / 1000);
    }
    console.log(
      `  task ${Math.round((t.dur ?? 0) / 1000)} ms: ${[...by]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, ms]) => `${k} ${Math.round(ms)}`)
        .join(', ')}`,
    );
    // what each layout in it laid out: objects dirty of all, and whether it was a partial layout
    const layouts = inner
      .filter((e) => e.name === 'Layout')
      .map((e) => {
        const b = (e.args as { beginData?: { dirtyObjects?: number; totalObjects?: number; partialLayout?: boolean } } | undefined)?.beginData;
        return `${Math.round((e.dur ?? 0) / 1000)} ms ${b?.dirtyObjects ?? '?'}/${b?.totalObjects ?? '?'}${b?.partialLayout ? ' partial' : ''}`;
      });
    if (layouts.length) console.log(`    layouts: ${layouts.join('; ')}`);
  }
}
interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}
function printProfile(p: Profile) {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  for (const n of p.nodes) {
    const k = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    byFn.set(k, (byFn.get(k) ?? 0) + (self.get(n.id) ?? 0) / 1000);
  }
  const total = [...byFn.values()].reduce((a, b) => a + b, 0);
  const byFile = new Map<string, number>();
  for (const n of p.nodes) {
    const k = n.callFrame.url.split('/').pop() || n.callFrame.functionName || '(native)';
    byFile.set(k, (byFile.get(k) ?? 0) + (self.get(n.id) ?? 0) / 1000);
  }
  console.log(
    `profile: by script (self time): ${[...byFile]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([k, ms]) => `${k} ${Math.round(ms)}`)
      .join(', ')}`,
  );
  console.log(`profile: ${Math.round(total)} ms sampled; heaviest (self time):`);
  for (const [k, ms] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${k}`);
}

export async function browser() {
  const chrome = await benchChromium('browser');
  if (!chrome) return;
  const b = await benchDb();
  const out: Record<string, unknown> = {};
  try {
    const only = process.env.BENCH_BROWSER_ONLY; // alarms | simulator | devices | publish: one part (profiling)
    // 1. alarm to screen, simulator quiet
    if (!only || only === 'alarms') {
      const server = await benchServer(b.db, { staticDir: DIST, testHooks: true, simulator: { rate: 0, heartbeatMs: 0 } });
      try {
        const page = await chrome.newPage();
        await signIn(page, server.base, 'operator');
        await page.goto(`${server.base}/monitor/alarms`);
        await page.getByTestId('alarms-screen').waitFor();
        await page
          .getByTestId('socket-status')
          .filter({ hasText: /connected/i })
          .waitFor();
        const token = await page.evaluate((k) => localStorage.getItem(k), STORAGE.jwt);
        const latencies: number[] = await page.evaluate(
          async ({ token, n }) => {
            const seen = new Map<string, number>();
            new MutationObserver(() => {
              for (const r of document.querySelectorAll('[data-testid=alarm-row]')) {
                const id = r.getAttribute('data-alarm-id')!;
                if (!seen.has(id)) seen.set(id, performance.now());
              }
            }).observe(document.querySelector('[data-testid=alarms-screen]')!, { childList: true, subtree: true });
            const out: number[] = [];
            for (let i = 0; i < n; i++) {
              const t0 = performance.now();
              const r = await fetch('/api/test/simulate', {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ kind: 'door.forced' }),
              });
              const id = String((await r.json()).id);
              while (!seen.has(id)) {
                if (performance.now() - t0 > 10_000) throw new Error(`alarm ${id} never shown`);
                await new Promise((x) => setTimeout(x, 1));
              }
              out.push(seen.get(id)! - t0);
              await new Promise((x) => setTimeout(x, 50)); // one alarm at a time, as a guard post sees them
            }
            return out;
          },
          { token, n: ALARM_SAMPLES },
        );
        const s = summary(latencies.slice(5)); // the first few warm the JIT and the table
        out['alarm to screen'] = {
          path: 'POST /api/test/simulate door.forced (persist, raise, publish) → STOMP → alarms actor → row in /monitor/alarms',
          samples: s.n,
          latencyMs: s,
          target: { p99LessThanMs: ALARM_TARGET_P99_MS },
          met: s.p99 < ALARM_TARGET_P99_MS,
        };
        await page.close();
      } finally {
        await server.close();
      }
    }
    // 2. events on screen
    const rate = Number(process.env.BENCH_SIMULATOR_RATE ?? 4000);
    if (!only || only === 'simulator') {
      const server = await benchServer(b.db, { staticDir: DIST, testHooks: true, simulator: { rate, heartbeatMs: 0 } });
      try {
        const page = await openEventsScreen(chrome, server.base);
        const northwind = b.northwind;
        const count = async () => Number((await b.db.query<{ n: string }>('select count(*)::text n from events where client_id = $1', [northwind])).rows[0].n);
        const before = await count();
        const t = performance.now();
        const m = await watchEvents(page, () => new Promise((r) => setTimeout(r, WINDOW_S * 1000)));
        const stored = (await count()) - before;
        const seconds = (performance.now() - t) / 1000;
        out['events on screen, simulator'] = {
          path: `hardware simulator at SIMULATOR_RATE=${rate} (all tenants; each event persisted, then published) → /monitor/events of one tenant`,
          serverEventsPerSecondForTheTenant: Math.round(stored / seconds),
          ...m,
          ...screenVerdict(m, 1),
        };
        await page.close();
      } finally {
        await server.close();
      }
    }
    if (!only || only === 'devices') {
      const server = await benchServer(b.db, { staticDir: DIST, testHooks: true, simulator: { rate: 0, heartbeatMs: 0 } });
      try {
        const keys = await provisionDeviceKeys(server.base, { username: 'admin', password: DEMO_PASSWORD }, 'Bench controllers', [b.northwind]);
        const page = await openEventsScreen(chrome, server.base);
        const perS = SCREEN_TARGET_PER_S;
        let sim: Awaited<ReturnType<typeof runDeviceSimulator>> | null = null;
        const m = await watchEvents(
          page,
          async () => {
            sim = await runDeviceSimulator({ url: server.base, keys, controllers: 50, rate: perS, durationS: WINDOW_S + 2 * EDGE_S, alarmEvery: 100_000 });
          },
          true,
        );
        const s = sim as unknown as Awaited<ReturnType<typeof runDeviceSimulator>>;
        out['events on screen, device simulator'] = {
          path: `50 virtual controllers of the tenant → POST /api/devices/events in 50 ms batches at ${perS}/s (persisted, then published) → STOMP → /monitor/events`,
          offeredPerSecond: perS,
          acceptedPerSecond: Math.round(s.accepted / (s.elapsedMs / 1000)),
          refused: s.rejected,
          failedRequests: s.failedRequests,
          deferredBatches: s.deferred,
          ...m,
          ...screenVerdict(m, 0.98),
        };
        await page.close();
      } finally {
        await server.close();
      }
    }
    if (!only || only === 'publish') {
      const server = await benchServer(b.db, { staticDir: DIST, testHooks: true, simulator: { rate: 0, heartbeatMs: 0 } });
      try {
        const page = await openEventsScreen(chrome, server.base);
        const perS = SCREEN_TARGET_PER_S;
        let id = 10_000_000;
        const m = await watchEvents(
          page,
          async () => {
            // 2,000 valid events a second in 10 ms slices through the server's publish path
            const t0 = performance.now();
            let sent = 0;
            while (performance.now() - t0 < (WINDOW_S + 2 * EDGE_S) * 1000) {
              const due = Math.floor(((performance.now() - t0) / 1000) * perS);
              for (; sent < due; sent++) {
                id++;
                publisherOf(server.app).publish(b.northwind, DESTINATIONS.events, {
                  id,
                  eventCode: 1000,
                  eventSourceId: `reader-${id % 50}`,
                  eventSourceName: `Reader ${id % 50}`,
                  eventPointId: `door-${id % 200}`,
                  eventPointName: `Door ${id % 200}`,
                  message: `Card swipe ${id}`,
                  alert: false,
                  acknowledge: false,
                  process: false,
                  eventPoint: [{ id: `door-${id % 200}`, name: `Door ${id % 200}` }],
                  time: new Date().toISOString(),
                  priority: 100,
                  instructions: null,
                });
              }
              await new Promise((r) => setTimeout(r, 10));
            }
          },
          true,
        );
        out['events on screen, 2,000/s published'] = {
          path: 'app.realtime.publish of 2,000 valid events/s (no database) → STOMP → /monitor/events',
          publishedPerSecond: perS,
          ...m,
          ...screenVerdict(m, 0.98),
        };
        await page.close();
      } finally {
        await server.close();
      }
    }
  } finally {
    await chrome.close();
    await b.dispose();
  }
  return writeResult('browser', { chromium: benchChromiumPath, console: DIST, results: out });
}
