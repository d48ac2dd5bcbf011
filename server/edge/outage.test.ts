// An outage as a site has one (issue 47): the real server as its own process (`server/main.ts`), two Gatehouse Edge
// controllers of Northwind connected to it and swiping all along; the server killed with SIGKILL mid-traffic, the
// edges going on deciding and journaling; then the server back — on PGlite the same server restarted on its data
// directory, on PostgreSQL the other of two servers over one database and the RabbitMQ relay, which the edges reach
// instead (the site's address moves to it). Afterwards every event each edge journaled is stored exactly once, in the
// order of its sequence numbers, those journaled while the server was gone marked offline.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API, TENANT_HEADER, controllersResource } from '../../contract';
import { startEdge, type Edge } from '../../edge/main';
import { freePort, proxyTo, until } from '../../edge/testPeers';
import { openPglite, openPostgres, type Db } from '../db/db';
import { DEMO_PASSWORD } from '../db/seed';
import { seededImage } from '../testImage';
import { adminQuery, startTestServer, withDatabase } from '../testkit';
import { serverProcessArgs } from '../processArgs';

const PG = process.env.DATABASE_URL || '';
// (an edge's journal numbers every event; the server notes the number of each decided swipe with it)
const MQ = process.env.STOMP_RELAY_TEST_URL || '';
const dir = mkdtempSync(join(tmpdir(), 'gh-outage-'));
const children: ChildProcess[] = [];
const edges: Edge[] = [];
const logs: string[] = [];
/** what the servers wrote (their errors and start-up: LOG unset), the last lines said when a check fails */
const serverLogs: string[] = [];

/** The real server as its own process group on `port` (started fresh or again on the same database). */
async function serverProcess(port: number, env: Record<string, string>) {
  const child = spawn(process.execPath, serverProcessArgs(), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      STATIC_DIR: join(dir, 'no-console'),
      SIMULATOR: 'off',
      RATE_LIMIT_MAX: '100000',
      JWT_SECRET: 'outage-test-secret-of-enough-length',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  for (const out of [child.stdout!, child.stderr!])
    out.on('data', (b: Buffer) => {
      for (const line of b.toString().split('\n')) if (line.trim()) serverLogs.push(`[${port}] ${line.slice(0, 2000)}`);
      if (serverLogs.length > 400) serverLogs.splice(0, serverLogs.length - 200);
    });
  await until(
    `the server on port ${port}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`the server on port ${port} exited with ${child.exitCode}`);
      return (await fetch(`http://127.0.0.1:${port}${API.health}`).catch(() => null))?.ok;
    },
    180_000,
  );
  return {
    base: `http://127.0.0.1:${port}`,
    /** SIGKILL of the whole group: a crash, no goodbye */
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    },
  };
}

afterAll(async () => {
  for (const e of edges) e.stop();
  for (const c of children)
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once('exit', r));
      process.kill(-c.pid!, 'SIGKILL');
      await exited;
    }
  rmSync(dir, { recursive: true, force: true });
});

/** Keys for Northwind's two controllers with card readers, made by its administrator. */
async function controllerKeys(base: string): Promise<{ controllerId: number; key: string }[]> {
  const call = async (path: string, init: RequestInit = {}) => {
    const r = await fetch(base + path, init);
    return { status: r.status, body: (await r.json().catch(() => null)) as any };
  };
  const login = await call(API.login, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
  });
  expect(login.status).toBe(200);
  const auth = { authorization: `Bearer ${login.body.token}`, 'content-type': 'application/json' };
  const clients = await call(`${API.clients}?size=100`, { headers: auth });
  const northwind = clients.body.items.find((c: { name: string }) => c.name.includes('Northwind'));
  const headers = { ...auth, [TENANT_HEADER]: String(northwind.id) };
  const readers = await call('/event/manage/card-readers?size=500', { headers });
  const wired = [...new Set<number>(readers.body.items.map((r: { controllerId: number }) => r.controllerId))].sort((a, b) => a - b).slice(0, 2);
  expect(wired).toHaveLength(2);
  const out: { controllerId: number; key: string }[] = [];
  for (const id of wired) {
    const made = await call(`${controllersResource.api}/${id}/edge-key`, { method: 'POST', headers, body: '{}' });
    expect(made.status).toBe(200);
    out.push({ controllerId: id, key: made.body.apiKey });
  }
  return out;
}

/** The decided swipes each edge journaled, by sequence number (a grant's other entries carry no swipe). */
const decidedSeqs = new Map<Edge, number[]>();

/** Each edge presents a card at one of its doors every 25 ms (its snapshot's cards, now and then an unknown one). */
function swipeAllAlong(list: Edge[]) {
  let n = 0;
  const timer = setInterval(() => {
    for (const e of list) {
      const s = e.store.held?.snapshot;
      if (!s?.doors.length) continue;
      n++;
      const door = s.doors[n % s.doors.length].id;
      const card = n % 7 === 0 || !s.credentials.length ? `9${n}` : s.credentials[n % s.credentials.length].number;
      const out = e.swipe({ doorId: door, card });
      const seqs = decidedSeqs.get(e) ?? [];
      for (const x of out.entries) if (x.decided) seqs.push(x.seq);
      decidedSeqs.set(e, seqs);
    }
  }, 25);
  return () => clearInterval(timer);
}

/** What the server stored of an edge's decided swipes at `doors`: their sequence numbers in the order stored, which
 *  offline, and which the live lane stored ahead of the backlog. */
async function storedOf(db: Db, doors: number[]) {
  const { rows } = await db.query<{ seq: number; offline: boolean; live: boolean }>(
    `select (swipe->'edge'->>'seq')::int as seq, (swipe->'edge'->>'offline')::boolean as offline, (swipe->'edge'->>'live')::boolean as live
       from events where swipe->'edge' is not null and (swipe->>'doorId')::int = any($1::int[]) order by id`,
    [doors],
  );
  return rows.map((r) => ({ seq: Number(r.seq), offline: r.offline === true, live: r.live === true }));
}

/**
 * Every decided swipe journaled is stored once, and in order but for a swipe the live lane stored ahead of the backlog
 * (issue 47: one decided online while the edge was still sending what it journaled offline reaches the consoles at once);
 * those journaled with the server gone are marked offline.
 */
async function expectDelivered(db: Db, edge: Edge) {
  const doors = edge.store.held!.snapshot.doors.map((d) => d.id);
  const stored = await storedOf(db, doors);
  const journaled = decidedSeqs.get(edge) ?? [];
  expect(journaled.length).toBeGreaterThan(20);
  expect(stored.map((x) => x.seq).sort((a, b) => a - b)).toEqual(journaled);
  const inLine = stored.filter((x) => !x.live).map((x) => x.seq);
  expect(inLine, 'the backlog stored in the order journaled').toEqual([...inLine].sort((a, b) => a - b));
  expect(
    stored.filter((x) => x.live).every((x) => !x.offline),
    'only a swipe decided online goes ahead',
  ).toBe(true);
  expect(stored.filter((x) => x.offline).length, 'swipes journaled while the server was gone are marked offline').toBeGreaterThan(0);
}

async function outage(opts: { first: { base: string; kill(): Promise<void> }; next: () => Promise<{ base: string }>; db: () => Promise<Db> }) {
  const keys = await controllerKeys(opts.first.base);
  const port = Number(new URL(opts.first.base).port);
  const proxy = await proxyTo(port); // the site's route to the server: moved to the other server on PostgreSQL
  for (const k of keys) {
    const dataDir = mkdtempSync(join(dir, 'edge-'));
    edges.push(startEdge({ server: proxy.url(), key: k.key, dataDir, backoff: { first: 50, max: 300 }, log: (m) => logs.push(m) }));
  }
  let stop = () => {};
  try {
    await until('both edges online with their snapshots', () => edges.every((e) => e.link.online && e.store.held), 30_000);
    stop = swipeAllAlong(edges);
    // swipes decided and delivered while the server runs
    await until('events delivered online', () => edges.every((e) => e.journal.lastDelivered >= 5), 20_000);
    await opts.first.kill();
    await until('both edges see the server gone', () => edges.every((e) => !e.link.online), 20_000);
    const at = edges.map((e) => e.journal.lastSeq);
    await until('swipes go on, decided and journaled', () => edges.every((e, i) => e.journal.lastSeq >= at[i] + 10), 20_000);
    const back = await opts.next();
    proxy.to(Number(new URL(back.base).port));
    await until('both edges online again', () => edges.every((e) => e.link.online), 60_000);
    stop();
    await until('every journaled event delivered', () => edges.every((e) => e.journal.undelivered === 0), 60_000);
    const db = await opts.db();
    try {
      for (const e of edges) await expectDelivered(db, e);
    } finally {
      await db.close();
    }
  } catch (e) {
    throw new Error(`${(e as Error).message}\nthe edges said:\n${logs.slice(-30).join('\n')}\nthe servers said:\n${serverLogs.slice(-20).join('\n')}`, {
      cause: e,
    });
  } finally {
    stop();
    for (const e of edges) e.stop();
    proxy.close();
  }
}

describe('a network that goes silent (no reset, no answer: a cut cable, a dead router)', () => {
  it('the edge takes the link for gone within its silence limit, decides offline, and delivers every swipe once when it carries again', async () => {
    const s = await startTestServer();
    const proxy = await proxyTo(Number(new URL(s.base).port));
    let stop = () => {};
    let edge: Edge | null = null;
    try {
      const [k] = await controllerKeys(s.base);
      edge = startEdge({
        server: proxy.url(),
        key: k.key,
        dataDir: mkdtempSync(join(dir, 'edge-')),
        backoff: { first: 50, max: 300 },
        liveness: { handshakeMs: 1000, pingMs: 200, silentMs: 1000, uploadMs: 2000 },
        log: (m) => logs.push(m),
      });
      const e = edge;
      await until('online', () => e.link.online && e.store.held);
      stop = swipeAllAlong([e]);
      await until('swipes delivered', () => e.journal.lastDelivered >= 5);
      proxy.silence();
      await until('offline: the link taken for gone', () => !e.link.online, 10_000);
      expect(logs.some((m) => m.startsWith('link: nothing from the server for'))).toBe(true);
      const at = e.journal.lastSeq;
      await until('swipes decided and journaled offline', () => e.journal.lastSeq >= at + 10);
      proxy.heal();
      await until('online again', () => e.link.online, 20_000);
      stop();
      await until('every swipe delivered', () => e.journal.undelivered === 0, 20_000);
      await expectDelivered(s.db, e);
    } finally {
      stop();
      edge?.stop();
      proxy.close();
      await s.close();
    }
  }, 120_000);
});

describe('a server stopped (SIGTERM: an upgrade, a restart)', () => {
  it('drops its edge links as it stops, so it ends and the edges go offline at once instead of holding on to a server that takes nothing', async () => {
    const s = await startTestServer();
    let edge: Edge | null = null;
    try {
      const [k] = await controllerKeys(s.base);
      edge = startEdge({ server: s.base, key: k.key, dataDir: mkdtempSync(join(dir, 'edge-')), backoff: { first: 50, max: 300 }, log: (m) => logs.push(m) });
      const e = edge;
      await until('online', () => e.link.online && e.store.held);
      let closed = false;
      const closing = s.close().then(() => (closed = true));
      await until('the server stopped', () => closed, 10_000);
      await closing;
      await until('the edge offline', () => !e.link.online, 5_000);
    } finally {
      edge?.stop();
    }
  }, 60_000);
});

describe('an outage at a site with two Gatehouse Edge controllers', () => {
  if (!PG)
    it('the server killed -9 and started again on its data directory: every event of both edges stored once and in order', async () => {
      const port = await freePort();
      const dataDir = join(dir, 'data');
      // from the test run's migrated and seeded image (server/testkit.ts) when there is one
      const image = process.env.GATEHOUSE_TEST_PGLITE_IMAGE;
      if (image) await (await openPglite(dataDir, seededImage(image))).close();
      const first = await serverProcess(port, { DATA_DIR: dataDir, DATABASE_URL: '' });
      let again: Awaited<ReturnType<typeof serverProcess>> | null = null;
      await outage({
        first,
        next: async () => (again = await serverProcess(port, { DATA_DIR: dataDir, DATABASE_URL: '' })),
        db: async () => {
          await again!.kill(); // PGlite is one process's: the server stops before the test reads its data directory
          return openPglite(dataDir);
        },
      });
    }, 300_000);
  else
    it('one of two servers behind the RabbitMQ relay killed -9: the edges reach the other, and every event is stored once and in order', async () => {
      if (!MQ) throw new Error('this test needs STOMP_RELAY_TEST_URL (RabbitMQ) beside PostgreSQL: .ci/run provides both');
      const name = `gh_outage_${randomBytes(5).toString('hex')}`;
      const template = process.env.GATEHOUSE_TEST_TEMPLATE_DB;
      await adminQuery(PG, `create database ${name}${template ? ` template ${template}` : ''}`);
      const url = withDatabase(PG, name);
      try {
        const env = { DATABASE_URL: url, STOMP_RELAY_URL: MQ, DATA_DIR: join(dir, 'unused') };
        const [a, b] = [await serverProcess(await freePort(), env), await serverProcess(await freePort(), env)];
        await outage({ first: a, next: async () => b, db: () => openPostgres(url) });
        await b.kill();
      } finally {
        await adminQuery(PG, `drop database if exists ${name} with (force)`);
      }
    }, 300_000);
});
