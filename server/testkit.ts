// A real server on a free port over a real database for the server tests: PGlite in memory, or, when
// DATABASE_URL is set (CI's second run), a fresh PostgreSQL database per test file, dropped afterwards.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { API } from '../contract';
import { buildServer, type ServerOptions } from './app';
import { openPglite, openPostgres, type Db } from './db/db';
import { migrate } from './db/migrate';
import { switchToFreshWalSegment } from './db/queries/wal';
import { DEMO_PASSWORD, seed } from './db/seed';
import { seededImage, seededImageFs } from './testImage';

export interface Call {
  status: number;
  body: any;
}

/** The demo data every test server starts with. */
const TEST_SEED = { identitiesPerClient: 12 } as const;
/** Set by server/testTemplate.ts (vitest's global setup): a migrated, seeded PGlite image, or PostgreSQL template database. */
const IMAGE_ENV = 'GATEHOUSE_TEST_PGLITE_IMAGE';
const TEMPLATE_ENV = 'GATEHOUSE_TEST_TEMPLATE_DB';

/**
 * Migrate and seed once per test run, so each test file's server starts from a copy instead of doing it again (PGlite:
 * its initdb, 100-odd migrations and the seed took about 3.5 s per server, a copy of the image about 0.5 s). Called by
 * the global setup; returns the teardown. Without it (a bench, one file run some other way) each server builds its own.
 */
export async function prepareTestDatabases(): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `gh_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `create database ${name}`);
    const db = await openPostgres(withDatabase(url, name));
    try {
      await migrate(db);
      await seed(db, TEST_SEED);
    } finally {
      await db.close();
    }
    process.env[TEMPLATE_ENV] = name;
    return async () => {
      delete process.env[TEMPLATE_ENV];
      await adminQuery(url, `drop database if exists ${name} with (force)`);
    };
  }
  const ahead = process.env[IMAGE_ENV];
  // made ahead (npm test writes it beside the source checks, server/writeTestImage.ts) and removed by whoever made it
  if (ahead && existsSync(ahead)) return async () => {};
  const { file, remove } = await writeSeededPgliteImage();
  process.env[IMAGE_ENV] = file;
  return async () => {
    delete process.env[IMAGE_ENV];
    remove();
  };
}

/** A migrated, seeded PGlite image written to a file of its own (`remove` deletes it): what the test servers open. */
export async function writeSeededPgliteImage(): Promise<{ file: string; remove: () => void }> {
  const db = await openPglite('memory://');
  let image: Blob;
  try {
    await migrate(db);
    await seed(db, TEST_SEED);
    // the image's log on a segment of its own: migrating and seeding fill about 86 % of the first 16 MB segment, and
    // PostgreSQL starting on a log past three quarters of its segment writes the next one at once, 16 MB of zeros 8 kB
    // at a time into PGlite's in-memory files (which grow by copying). Every test server opened from the image paid
    // that: 1.32 s of processor time an open before, 0.93 s after (median of 7 opens each, alternated, load 10-12)
    await switchToFreshWalSegment(db);
    image = await db.dump!();
  } finally {
    await db.close();
  }
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-image-'));
  const file = join(dir, 'pglite.tar');
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function adminQuery(url: string, sql: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function startTestServer(overrides: Partial<ServerOptions> = {}) {
  let db: Db;
  let dropDb = async () => {};
  /** A copy of the run's migrated, seeded database (the global setup's), not an empty one. */
  let copied: boolean;
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `gh_test_${randomBytes(6).toString('hex')}`;
    const template = process.env[TEMPLATE_ENV];
    copied = !!template;
    // copied file by file, not block by block through the log (PostgreSQL 15's default, WAL_LOG, writes the template's
    // 15 MB into the write-ahead log for each copy): 250 -> 135 ms a database (median of 8 each, alternated, one at a
    // time; two at once with a write in each, create + write + drop 1.7 -> 1.45 s, load 9-15), and the PostgreSQL
    // step starts about 120 servers this way
    await adminQuery(url, `create database ${name}${template ? ` template ${template} strategy file_copy` : ''}`);
    db = await openPostgres(withDatabase(url, name));
    dropDb = () => adminQuery(url, `drop database if exists ${name} with (force)`);
  } else {
    const image = process.env[IMAGE_ENV];
    copied = !!image;
    // `dataDir` given: PGlite keeps its data in that directory (a disk the test controls) instead of in memory
    // in memory: the image's files shared with every other test server of this fork until written (server/testImage.ts)
    const from = image && (overrides.dataDir ? seededImage(image) : seededImageFs(image));
    db = await openPglite(overrides.dataDir ?? 'memory://', from || undefined);
  }
  // a copy of the run's template has nothing to migrate or seed: its migrations and seed ran in this run, with this
  // code, in the global setup (asked anyway they found nothing to do, after hashing the demo password and reading
  // the 100-odd migration files again: 137 ms of the start's wall time and 51 of processor time, median of 19 starts,
  // load ~5)
  if (!copied) {
    await migrate(db);
    await seed(db, TEST_SEED);
  }
  const app = await buildServer({
    db,
    jwtSecret: 'test-secret-of-enough-length',
    staticDir: null,
    keepResetTokens: true,
    allowPrivateWebhookTargets: true, // receivers listen on 127.0.0.1
    rateLimit: { max: 100_000, windowMs: 60_000 },
    ...overrides,
  }); // generous: tests sign in many times; one test lowers it
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  // One request over real HTTP, on connections kept open between calls. Node's http client, not fetch: fetch (undici,
  // its WHATWG streams and headers) cost 4.5 ms of processor time a request where this costs 1.5 (600 refused POSTs
  // to one test server, 2026-12-04), and the server tests send tens of thousands (the hostile-input test alone 7,000).
  // The headers fetch sends that the server reads are sent alike (user-agent, accept, accept-language); no
  // accept-encoding, so no answer is compressed only to be inflated here (a test of compression asks for it itself).
  // A connection idle for a minute is closed by this side, before the server's own limit (Fastify's 72 s), so a call
  // never goes out on a connection the server is closing; the server's close() ends the idle ones.
  const agent = new Agent({ keepAlive: true, timeout: 60_000 });
  const { hostname, port } = new URL(base);
  async function call(
    method: string,
    path: string,
    opts: { token?: string | null; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Call> {
    const headers: Record<string, string | number> = { 'user-agent': 'node', accept: '*/*', 'accept-language': '*', ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      // the address as fetch sends it (percent-encoded, dot segments resolved)
      const url = new URL(path, base);
      const req = request({ hostname, port, path: url.pathname + url.search, method, headers, agent }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        r.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
    const text = res.text;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  }
  async function login(username: string, password = DEMO_PASSWORD): Promise<string> {
    const r = await call('POST', '/idp/1.0/login', { body: { username, password } });
    if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token as string;
  }
  /** The id of the client of `code` (e.g. the seeded 'NORTHWIND'). */
  async function clientIdOf(code: string): Promise<number> {
    const client = (await db.query<{ id: number }>('select id from clients where code = $1', [code])).rows[0];
    if (!client) throw new Error(`no client ${code}`);
    return Number(client.id);
  }
  /** `username` signed in with the client of `code` selected (e.g. the platform admin working in Northwind). */
  async function loginTo(username: string, code: string): Promise<string> {
    const token = await login(username);
    const r = await call('PUT', API.meClient, { token, body: { clientId: await clientIdOf(code) } });
    if (r.status !== 200) throw new Error(`select ${code} as ${username}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.token as string;
  }
  async function count(sql: string, params: unknown[] = []): Promise<number> {
    const { rows } = await db.query<{ n: string }>(`select count(*)::text as n from (${sql}) t`, params);
    return Number(rows[0].n);
  }
  async function close() {
    // each step timed: a close past a hook's timeout (readerRoutes.comset.test.ts on PostgreSQL in CI at load ~5,
    // 2026-12-04, not reproduced alone) says which step it was waiting in
    const step = async (name: string, fn: () => Promise<unknown>) => {
      const t = Date.now();
      const slow = setTimeout(() => console.warn(`test server close: still in ${name} after 20 s`), 20_000);
      try {
        await fn();
      } finally {
        clearTimeout(slow);
        if (Date.now() - t > 20_000) console.warn(`test server close: ${name} took ${Date.now() - t} ms`);
      }
    };
    await step('app.close()', () => app.close());
    agent.destroy();
    await step('db.close()', () => db.close());
    await step('dropping the database', () => dropDb());
  }
  return { base, db, app, call, login, loginTo, clientIdOf, count, close };
}
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** A test server and the id of its client of `code` (a file whose tests work in one seeded client, e.g. 'NORTHWIND'). */
/**
 * The pipeline's writer held on demand (give `beforeIngestWrite` to startTestServer): `hold()` holds it from its next
 * write until the function it returns is called, so what is admitted meanwhile waits in the pipeline's queue (a
 * person or zone deleted then, two batches in one transaction); `writes` counts the writes begun.
 */
export function heldIngestWriter() {
  let held: Promise<void> | null = null;
  let writes = 0;
  return {
    beforeIngestWrite: async () => {
      writes++;
      await held;
    },
    hold(): () => void {
      let release!: () => void;
      held = new Promise<void>((r) => (release = r));
      return () => {
        held = null;
        release();
      };
    },
    get writes() {
      return writes;
    },
    /** Holds the writer with what `send` sends in its transaction (cut and waiting): what is sent next waits in the
     *  queue. Answers the release, which lets the writer go and answers the status `send` was answered. */
    async holdWhile(send: () => Promise<{ status: number }>): Promise<() => Promise<number>> {
      const release = this.hold();
      const before = writes;
      const sent = send();
      await until('the writer held', () => writes > before);
      return async () => {
        release();
        return (await sent).status;
      };
    },
  };
}

/** Waits until `done` (polled every 10 ms); fails naming `what` after 20 s. */
export async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; !done(); i++) {
    if (i > 2000) throw new Error(`${what}: not in 20 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function startTestServerIn(code: string, overrides: Partial<ServerOptions> = {}): Promise<{ s: TestServer; clientId: number }> {
  const s = await startTestServer(overrides);
  return { s, clientId: await s.clientIdOf(code) };
}

/**
 * Every table's row count and newest `updated_at` (where it has one), one line per table in the tables' order: two
 * equal snapshots mean no row was added, removed or updated anywhere (a refused request changed nothing). Left out:
 * `audit_heads`, which the server's signer writes by itself within seconds of any earlier write (issue 45: a signed
 * statement about records already there, not a change of the request's; `audit_log` itself is compared).
 */
export async function tablesSnapshot(db: Db): Promise<string> {
  // on PostgreSQL in a transaction of its own, with no parallel workers: it planned the counts as a parallel append and
  // started workers for every snapshot (157 ms a snapshot against 54; PGlite has none, and a transaction there cost 30 ms)
  return db.kind === 'postgres' ? db.transaction(countedTables) : countedTables(db);
}
async function countedTables(db: Db): Promise<string> {
  // the tables from the catalogue itself, not information_schema's views (the same rows: 5.7 ms against 76 on PGlite, the
  // hostile-input test takes 185 snapshots); set_config's `true`: for this transaction only
  const { rows: tables } = await db.query<{ table_name: string; has_updated: boolean }>(`select c.relname as table_name,
      exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'updated_at' and a.attnum > 0 and not a.attisdropped) has_updated
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
      cross join (select set_config('max_parallel_workers_per_gather', '0', true)) serial
    where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname not in ('health_probe', 'audit_heads') order by c.relname`);
  const parts = tables.map((t) => `select '${t.table_name}' t, count(*)::text n, ${t.has_updated ? 'max(updated_at)::text' : "''"} u from "${t.table_name}"`);
  // ordered: PostgreSQL may answer the branches of a union in any order (a parallel append did, once in CI)
  const { rows } = await db.query(`select * from (${parts.join(' union all ')}) counted order by t`);
  return JSON.stringify(rows);
}
