// Event ingest (issue 13): the server as its own process (PGlite, and PostgreSQL when BENCH_DATABASE_URL is set), a
// device simulator sending batches through the device interface at 1k/5k/10k/20k events/s, and one console per tenant
// subscribed to /events over STOMP → bench/results/ingest.json: events/s persisted (acknowledged by the server after
// commit) and delivered to the consoles, send-to-console latency p99, and the server's peak RSS. Offered more than it
// can write, the server refuses batches with 503 + Retry-After (back-pressure, INGEST_BACKLOG_MAX) and the simulator
// sends them again (`deferredBatches`): no level may lose an event, and up to the target rate none may be deferred.
// `serverMemoryAtPeakMb`: the server's own account (MEMORY_LOG_S) near its highest RSS: JS heap, and `external` (PGlite).
// Scale-out (with BENCH_DATABASE_URL and BENCH_STOMP_RELAY_URL, a RabbitMQ STOMP listener): at each of SCALE_RATES the
// same offered rate goes to one server, then split over two server processes on one PostgreSQL database with the
// relay (a simulator per server, half the rate each), the consoles signed in on the first, so an event ingested by
// the second reaches them through RabbitMQ. Target: two persist and deliver ≥ 1.7× what one does.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import SockJS from 'sockjs-client';
import { Client } from '@stomp/stompjs';
import { DESTINATIONS, SOCKJS_PREFIX } from '../contract';
import { DEMO_PASSWORD } from '../server/db/seed';
import { provisionDeviceKeys, runDeviceSimulator } from '../scripts/deviceSimulator';
import { summary, writeResult } from './lib';

// BENCH_INGEST_RATES=10000: only these levels (profiling one rate); the result then says which were measured
const RATES = (process.env.BENCH_INGEST_RATES ?? '1000,5000,10000,20000').split(',').map(Number).filter((n) => n > 0);
const SECONDS = 6;
const TARGET = { pglite: 10_000, postgres: 30_000 };
const LATENCY_P99_MS = 250;
const RSS_MB = 600;
const SCALE_RATES = [10000, 20000];
const SCALE_TARGET = 1.7;

/** Where the server's memory is (MB), from its MEMORY_LOG_S lines: the JS heap, and `external` (PGlite's memory). */
interface MemoryMb { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number }

async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; memory: { last: MemoryMb | null }; stop(): Promise<void> }> {
  const port = 30000 + Math.floor(Math.random() * 9000);
  const url = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_PROFILE=<dir>: a CPU profile of each server process written there (finding causes)
  const profile = process.env.BENCH_SERVER_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROFILE}`] : [];
  // the server runs as `npm start` runs it (package.json: --no-liftoff); BENCH_SERVER_NODE_FLAGS to compare others
  const flags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '--no-liftoff').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, ...profile, '--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SIMULATOR: 'off', STATIC_DIR: '/nonexistent', MEMORY_LOG_S: '0.5', ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const memory: { last: MemoryMb | null } = { last: null };
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"memoryMb"')) continue;
      try { memory.last = (JSON.parse(line) as { memoryMb: MemoryMb }).memoryMb; } catch { /* not a log line */ }
    }
  });
  const until = Date.now() + 120_000;
  for (;;) {
    try { if ((await fetch(`${url}/api/health`)).ok) break; } catch { /* starting */ }
    if (Date.now() > until || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, child, memory, stop: async () => { const gone = new Promise((r) => child.once('exit', r)); child.kill('SIGTERM'); await gone; } };
}

const rssMb = (pid: number) => {
  try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024; } catch { return 0; }
};

async function consoles(url: string) {
  const state = { received: 0, lastAt: 0, latencies: [] as number[] };
  const clients: Client[] = [];
  for (const username of ['operator', 'harbour']) {
    const r = await fetch(`${url}/idp/1.0/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: DEMO_PASSWORD }) });
    const { token } = (await r.json()) as { token: string };
    let ready = false;
    const c = new Client({
      webSocketFactory: () => new SockJS(`${url}${SOCKJS_PREFIX.event}`, undefined, { transports: ['websocket'] }),
      connectHeaders: { Authorization: `Bearer ${token}` }, reconnectDelay: 0, heartbeatIncoming: 0, heartbeatOutgoing: 0, debug: () => {},
      onConnect: () => {
        c.watchForReceipt('r', () => { ready = true; });
        c.subscribe(DESTINATIONS.events, (m) => {
          state.received++;
          state.lastAt = performance.now();
          const t = / t=([\d.]+)/.exec(m.body);
          if (t) state.latencies.push(performance.timeOrigin + performance.now() - Number(t[1]));
        }, { receipt: 'r' });
      },
    });
    c.activate();
    const until = Date.now() + 30_000;
    while (!ready) { if (Date.now() > until) throw new Error('console did not subscribe'); await new Promise((r) => setTimeout(r, 20)); }
    clients.push(c);
  }
  return { state, close: () => Promise.all(clients.map((c) => c.deactivate())) };
}

async function measure(kind: 'pglite' | 'postgres', env: Record<string, string>) {
  const server = await startServer(env);
  const levels: Record<string, unknown>[] = [];
  try {
    const watch = await consoles(server.url);
    // one device-ingest service account per demo client (issue 11: keys are per tenant)
    const keys = await provisionDeviceKeys(server.url, { username: 'admin', password: DEMO_PASSWORD }, 'Ingest bench');
    for (const rate of RATES) {
      watch.state.received = 0; watch.state.latencies = [];
      let peak = rssMb(server.child.pid!);
      let where: MemoryMb | null = null; // the server's own account at its highest RSS of the level
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(server.child.pid!));
        const m = server.memory.last;
        if (m && (!where || m.rss >= where.rss)) where = m;
      }, 200);
      const t0 = performance.now();
      const r = await runDeviceSimulator({ url: server.url, keys, controllers: 500, rate, durationS: SECONDS, stamp: true, alarmEvery: 1000 });
      // every accepted event must reach a console: wait for the stragglers (bounded)
      const until = performance.now() + 30_000;
      while (watch.state.received < r.accepted && performance.now() < until) await new Promise((res) => setTimeout(res, 20));
      clearInterval(sampler);
      const persistedPerS = Math.round(r.accepted / (r.lastResponseMs / 1000));
      const deliveredPerS = Math.round(watch.state.received / ((watch.state.lastAt - t0) / 1000));
      const lat = summary(watch.state.latencies);
      const level = { offeredPerS: rate, sent: r.sent, accepted: r.accepted, failedRequests: r.failedRequests, deferredBatches: r.deferred, persistedPerS, delivered: watch.state.received, deliveredPerS, latencyMs: lat, serverPeakRssMb: Math.round(peak), serverMemoryAtPeakMb: where };
      console.log(`  ${kind} ${rate}/s offered: persisted ${persistedPerS}/s, delivered ${deliveredPerS}/s, p99 ${lat.p99} ms, RSS ${Math.round(peak)} MB`);
      levels.push(level);
    }
    await watch.close();
  } finally {
    await server.stop();
  }
  const target = TARGET[kind];
  const atTarget = levels.find((l) => (l.offeredPerS as number) >= target) as any;
  const best = Math.max(...levels.map((l) => l.persistedPerS as number));
  // every level loses nothing (a batch refused for back-pressure is sent again); up to the target rate, nothing waits
  // for a second try either
  const whole = (l: any) => l.accepted === l.sent && l.failedRequests === 0 && l.delivered >= l.accepted;
  const sustained = levels.filter((l: any) => whole(l) && (l.offeredPerS > target || l.deferredBatches === 0));
  return {
    levels,
    target: { persistedPerS: target, latencyP99Ms: LATENCY_P99_MS, serverRssMb: RSS_MB },
    bestPersistedPerS: best,
    met: {
      throughput: best >= target && sustained.length === levels.length,
      latency: atTarget ? atTarget.latencyMs.p99 < LATENCY_P99_MS : false,
      memory: levels.every((l) => (l.serverPeakRssMb as number) <= RSS_MB),
    },
  };
}


/** One level over one or two servers (a simulator per server, the rate split evenly); consoles on the first. */
async function scaleLevel(urls: string[], rate: number) {
  const watch = await consoles(urls[0]);
  try {
    const keys = await Promise.all(urls.map((u, i) => provisionDeviceKeys(u, { username: 'admin', password: DEMO_PASSWORD }, `Scale bench ${i}`)));
    const t0 = performance.now();
    const runs = await Promise.all(urls.map((url, i) => runDeviceSimulator({ url, keys: keys[i], controllers: 500, rate: rate / urls.length, durationS: SECONDS, stamp: true, alarmEvery: 1000 })));
    const accepted = runs.reduce((a, r) => a + r.accepted, 0);
    const until = performance.now() + 30_000;
    while (watch.state.received < accepted && performance.now() < until) await new Promise((res) => setTimeout(res, 20));
    const lastMs = Math.max(...runs.map((r) => r.lastResponseMs));
    return {
      servers: urls.length, offeredPerS: rate, sent: runs.reduce((a, r) => a + r.sent, 0), accepted,
      failedRequests: runs.reduce((a, r) => a + r.failedRequests, 0), deferredBatches: runs.reduce((a, r) => a + r.deferred, 0),
      persistedPerS: Math.round(accepted / (lastMs / 1000)),
      delivered: watch.state.received, deliveredPerS: Math.round(watch.state.received / ((watch.state.lastAt - t0) / 1000)),
      latencyMs: summary(watch.state.latencies),
    };
  } finally { await watch.close(); }
}

async function scaleOut(pgUrl: string, relayUrl: string) {
  const levels: Record<string, unknown>[] = [];
  for (const servers of [1, 2]) {
    const name = `gh_scale_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect(); await admin.query(`create database ${name}`); await admin.end();
    const u = new URL(pgUrl); u.pathname = `/${name}`;
    const env = { DATABASE_URL: u.toString(), STOMP_RELAY_URL: relayUrl, JWT_SECRET: 'scale-out-bench-secret-of-enough-length' };
    const started: Awaited<ReturnType<typeof startServer>>[] = [];
    try {
      for (let i = 0; i < servers; i++) started.push(await startServer(env)); // the first migrates and seeds
      for (const rate of SCALE_RATES) {
        const level = await scaleLevel(started.map((x) => x.url), rate);
        console.log(`  scale-out ${servers} server(s) ${rate}/s offered: persisted ${level.persistedPerS}/s, delivered ${level.deliveredPerS}/s, p99 ${level.latencyMs.p99} ms`);
        levels.push(level);
      }
    } finally {
      for (const x of started) await x.stop();
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect(); await a.query(`drop database if exists ${name} with (force)`); await a.end();
    }
  }
  const best = (n: number) => Math.max(...levels.filter((l) => l.servers === n).map((l) => Math.min(l.persistedPerS as number, l.deliveredPerS as number)));
  const ratio = Number((best(2) / best(1)).toFixed(2));
  const lost = levels.some((l) => l.accepted !== l.sent || (l.delivered as number) < (l.accepted as number));
  return { levels, bestOne: best(1), bestTwo: best(2), ratio, target: { ratioAtLeast: SCALE_TARGET }, met: { scaleOut: ratio >= SCALE_TARGET && !lost } };
}

export async function ingest() {
  // BENCH_INGEST_ONLY=scaleout: only the scale-out part (it needs PostgreSQL and RabbitMQ)
  if (process.env.BENCH_INGEST_ONLY === 'scaleout') {
    const pgUrl = process.env.BENCH_DATABASE_URL, relay = process.env.BENCH_STOMP_RELAY_URL;
    if (!pgUrl || !relay) throw new Error('BENCH_INGEST_ONLY=scaleout needs BENCH_DATABASE_URL and BENCH_STOMP_RELAY_URL');
    const scale = await scaleOut(pgUrl, relay);
    writeResult('ingest-scaleout', { secondsPerLevel: SECONDS, controllers: 500, scaleOut: scale, met: scale.met.scaleOut });
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-ingest-'));
  const result: Record<string, unknown> = { secondsPerLevel: SECONDS, controllers: 500, alarmEvery: 1000 };
  // BENCH_INGEST_ONLY=postgres: only the PostgreSQL part (profiling)
  if (process.env.BENCH_INGEST_ONLY !== 'postgres') {
    try {
      result.pglite = await measure('pglite', { DATA_DIR: dir, DATABASE_URL: '' });
    } finally { rmSync(dir, { recursive: true, force: true }); }
  }
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) {
    const name = `gh_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect(); await admin.query(`create database ${name}`); await admin.end();
    const u = new URL(pgUrl); u.pathname = `/${name}`;
    try { result.postgres = await measure('postgres', { DATABASE_URL: u.toString() }); } finally {
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect(); await a.query(`drop database if exists ${name} with (force)`); await a.end();
    }
  } else {
    result.postgres = 'not measured: set BENCH_DATABASE_URL=postgres://… (a server where a database may be created)';
  }
  const relay = process.env.BENCH_STOMP_RELAY_URL;
  if (pgUrl && relay) result.scaleOut = await scaleOut(pgUrl, relay);
  else result.scaleOut = 'not measured: set BENCH_DATABASE_URL and BENCH_STOMP_RELAY_URL=stomp://guest:guest@127.0.0.1:61613/ (RabbitMQ with its STOMP plugin)';
  const parts = [result.pglite, result.postgres, result.scaleOut].filter((p): p is { met: Record<string, boolean> } => typeof p === 'object');
  writeResult('ingest', { ...result, met: parts.every((p) => Object.values(p.met).every(Boolean)) });
}
