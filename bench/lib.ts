// What the benchmarks share: percentiles, timing, a throw-away PGlite data dir with a bulk of events, a real
// server over it, and the result file with its target and whether the target was met.
import { getText } from './http';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer, type ServerOptions } from '../server/app';
import pg from 'pg';
import { openPglite, openPostgres, type Db } from '../server/db/db';
import { migrate } from '../server/db/migrate';
import { DEMO_PASSWORD, seed } from '../server/db/seed';
import { chromiumPath } from '../playwright.config';

export const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2));
};
export const summary = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p95: pct(xs, 95), p99: pct(xs, 99), max: pct(xs, 100) });

export async function timed(n: number, fn: (i: number) => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  return summary(samples);
}

// the 1-minute load average when the result was written: other work on the same cores makes numbers noisy
export const machine = () => ({
  node: process.version,
  cpus: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  loadAverage1m: Number(loadavg()[0].toFixed(2)),
});

export function writeResult(name: string, result: Record<string, unknown>) {
  mkdirSync('bench/results', { recursive: true });
  const out = { bench: name, at: new Date().toISOString(), machine: machine(), ...result };
  writeFileSync(`bench/results/${name}.json`, JSON.stringify(out, null, 2) + '\n');
  console.log(`bench/results/${name}.json`);
  console.log(JSON.stringify(out, null, 2));
  return out;
}

/** A fresh PGlite database in a temp DATA_DIR, migrated and seeded with the demo tenants. */
export async function benchDb(base = tmpdir()): Promise<{ db: Db; dir: string; northwind: number; harbour: number; dispose(): Promise<void> }> {
  const dir = mkdtempSync(join(base, 'gatehouse-bench-'));
  const db = await openPglite(dir);
  await migrate(db);
  await seed(db, { identitiesPerClient: 12 });
  const id = async (code: string) => Number((await db.query<{ id: number }>('select id from clients where code = $1', [code])).rows[0].id);
  return {
    db,
    dir,
    northwind: await id('NORTHWIND'),
    harbour: await id('HARBOUR'),
    async dispose() {
      await db.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same on PostgreSQL: a fresh database created on the server of `url` (BENCH_DATABASE_URL), dropped after. */
export async function benchPostgres(url: string): Promise<Awaited<ReturnType<typeof benchDb>>> {
  const name = `gh_bench_${Date.now()}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const db = await openPostgres(u.toString());
  await migrate(db);
  await seed(db, { identitiesPerClient: 12 });
  const id = async (code: string) => Number((await db.query<{ id: number }>('select id from clients where code = $1', [code])).rows[0].id);
  return {
    db,
    dir: '',
    northwind: await id('NORTHWIND'),
    harbour: await id('HARBOUR'),
    async dispose() {
      await db.close().catch(() => {});
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

export const EVENT_CODES_MIX = [1000, 1001, 2000, 2001, 2002, 3000, 3001, 4002, 1012, 6001];
/** Realistic event history for one tenant: 10 codes, 50 readers, 200 doors, one alert in ~1000, two seconds apart. */
export async function seedEvents(db: Db, clientId: number, count: number, log = true): Promise<{ ms: number; firstAt: string }> {
  const t = performance.now();
  const batch = 250_000;
  const firstAt = '2024-01-01T00:00:00Z';
  const { rows } = await db.query<{ n: string }>('select coalesce(max(id), 0)::text n from events');
  const offset = Number(rows[0].n);
  for (let from = 1; from <= count; from += batch) {
    const to = Math.min(count, from + batch - 1);
    await db.query(
      `insert into events (client_id, event_code, event_source_id, event_source_name, event_point_id, event_point_name, message, alert, priority, at)
      select $1, ($4::int[])[1 + g % 10], 'reader-' || (g % 50), 'Reader ' || (g % 50), 'door-' || (g % 200), 'Door ' || (g % 200),
        'Card swipe ' || g, g % 997 = 0, case when g % 997 = 0 then 1 else 100 end, $5::timestamptz + ((g + $6::int) * interval '2 seconds')
      from generate_series($2::int, $3::int) g`,
      [clientId, from, to, EVENT_CODES_MIX, firstAt, offset],
    );
    if (log) process.stdout.write(`  seeded ${to.toLocaleString()} events (${Math.round((performance.now() - t) / 1000)} s)\n`);
  }
  await db.exec('analyze events');
  return { ms: Math.round(performance.now() - t), firstAt };
}

/**
 * A large identity catalogue in one tenant (issue 11): `count` identities spread over its divisions, one in ten
 * inactive, each with a cost centre (a user-defined field) and a card. `First<n>`, `Last<n % 5000>`, `EL-<n>`,
 * `CC-<n % 40>`, card `ELC-EL-<n>`.
 */
export async function seedIdentities(db: Db, clientId: number, count: number, log = true): Promise<number> {
  const t = performance.now();
  const divs = (await db.query<{ id: number }>('select id from divisions where client_id = $1 order by id', [clientId])).rows.map((x) => x.id);
  for (let from = 1; from <= count; from += 50_000) {
    const to = Math.min(count, from + 49_999);
    await db.query(
      `insert into identities (client_id, first_name, last_name, employee_no, email, division_id, status, udf)
      select $1, 'First' || g, 'Last' || (g % 5000), 'EL-' || g, 'p' || g || '@bench.test', ($4::int[])[1 + g % array_length($4::int[], 1)],
        case when g % 10 = 0 then 'inactive' else 'active' end, jsonb_build_object('costCentre', 'CC-' || (g % 40))
      from generate_series($2::int, $3::int) g`,
      [clientId, from, to, divs],
    );
    await db.query(
      `insert into credentials (client_id, identity_id, type, number) select $1, i.id, 'card', 'ELC-' || i.employee_no from identities i
      where i.client_id = $1 and i.employee_no like 'EL-%' and not exists (select 1 from credentials c where c.identity_id = i.id)`,
      [clientId],
    );
    if (log) console.log(`  seeded ${to.toLocaleString()} identities (${Math.round((performance.now() - t) / 1000)} s)`);
  }
  // what the server's maintenance does within 15 minutes on PGlite (autovacuum on PostgreSQL): the visibility map
  // lets a capped list count read an index alone
  await db.exec('vacuum (analyze) identities');
  await db.exec('vacuum (analyze) credentials');
  return Math.round((performance.now() - t) / 100) / 10;
}

/** The real server over `db` on a free loopback port, with a login helper. */
export async function benchServer(db: Db, overrides: Partial<ServerOptions> = {}) {
  const app = await buildServer({ db, jwtSecret: 'bench-secret-of-enough-length', staticDir: null, keepResetTokens: true, rateLimit: false, ...overrides });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  async function login(username: string): Promise<string> {
    const r = await fetch(`${base}/idp/1.0/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: DEMO_PASSWORD }),
    });
    if (r.status !== 200) throw new Error(`login ${username}: ${r.status}`);
    return ((await r.json()) as { token: string }).token;
  }
  const get = (path: string, token: string) => getText(base, path, token);
  return { app, base, login, get, close: () => app.close() };
}

/** The server's publish path (what the pipeline calls after persisting an event). */
export const publisherOf = (app: unknown) => (app as { realtime: { publish(clientId: number, destination: string, body: unknown): void } }).realtime;

/** The console copy the browser benchmarks serve (built unless BENCH_SKIP_BUILD=1 and one is there). */
export const BENCH_DIST = process.env.BENCH_DIST ?? '.tmp/dist-bench';
const CHROMIUM = chromiumPath; // playwright.config.ts: the headless shell when installed, as the end-to-end tests
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian chromium with the built console, or null (and the result file says why) when chromium is missing. */
export async function benchChromium(name: string): Promise<import('playwright-core').Browser | null> {
  if (!existsSync(CHROMIUM)) {
    writeResult(name, { skipped: 'no chromium: apt-get install -y chromium chromium-headless-shell', met: null });
    return null;
  }
  if (process.env.BENCH_SKIP_BUILD !== '1' || !existsSync(`${BENCH_DIST}/index.html`)) {
    console.log(`${name}: building the console into ${BENCH_DIST}`);
    execFileSync('npx', ['vite', 'build', '--outDir', BENCH_DIST, '--emptyOutDir', '--logLevel', 'warn'], { stdio: 'inherit' });
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
export const benchChromiumPath = CHROMIUM;
