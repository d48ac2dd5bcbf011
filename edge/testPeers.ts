// What the edge tests share (edge/edge.test.ts, edge/doorIo.test.ts, server/edge/readerRoutes.test.ts): waiting for a
// thing with a deadline (never a sleep in its place), a TCP proxy that cuts the site's network, and the controller an
// edge test runs as (its key issued on the real server, its edges and data directories cleaned up after the file).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket, connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controllersResource } from '../contract';
import { startEdge, type Edge, type EdgeOptions } from './main';

/** `fn` until it answers something, polled every 50 ms; fails naming `what` after `ms` (10 s unless said). */
/** What `until` answers: the value, which is not false, null, undefined, 0 or empty. */
export type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function until<T>(what: string, fn: () => T | Promise<T>, ms = 10_000): Promise<Truthy<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as Truthy<T>;
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A TCP proxy to the server that can be cut (the site's network gone), restored on the same port, or moved to another server. */
/**
 * A port nobody listens on now, from the system (bind port 0, read it, close): a random number in a range collided in
 * CI with another test's server or the throw-away PostgreSQL and RabbitMQ ports, and the server exited at start.
 */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function proxyTo(port: number) {
  let target = port;
  let silent = false; // the network drops everything (no reset, no answer): what a cut cable or a dead router does
  const held = new Set<Socket>();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let at = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((inbound) => {
        sockets.add(inbound);
        inbound.on('error', () => inbound.destroy());
        inbound.on('close', () => sockets.delete(inbound));
        if (silent) {
          held.add(inbound); // a black hole: taken, never answered
          return;
        }
        const out = netConnect(target, '127.0.0.1');
        sockets.add(out);
        out.on('error', () => out.destroy());
        // either side gone takes the other with it (a closed port answers a reset, as a real network does)
        out.on('close', () => {
          sockets.delete(out);
          inbound.destroy();
        });
        inbound.on('close', () => out.destroy());
        inbound.on('data', (b) => (silent ? null : out.write(b)));
        out.on('data', (b) => (silent ? null : inbound.write(b)));
      });
      server.listen(at, '127.0.0.1', () => {
        const a = server!.address();
        at = typeof a === 'object' && a ? a.port : 0;
        resolve();
      });
    });
  await listen();
  return {
    url: () => `http://127.0.0.1:${at}`,
    async cut() {
      await new Promise<void>((r) => {
        server!.close(() => r());
        for (const x of sockets) x.destroy();
      });
    },
    restore: listen,
    /** The network goes silent: every byte either way is dropped, connections stay open, new ones are never answered. */
    silence() {
      silent = true;
    },
    /** The network carries again; connections taken while it was silent are dropped. */
    heal() {
      silent = false;
      for (const x of held) x.destroy();
      held.clear();
    },
    /** From now on to another server (the site's address moved to it); connections open now stay where they are. */
    to(next: number) {
      target = next;
    },
    close() {
      for (const x of sockets) x.destroy();
      server?.close();
    },
  };
}

/** What the fixture uses of the server's test kit (server/testkit.ts TestServer; edge/ imports nothing of server/). */
interface ServerUnderTest {
  base: string;
  db: { query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }> };
  call(method: string, path: string, opts: { token?: string; body?: unknown }): Promise<{ status: number; body: any }>;
  loginTo(username: string, client: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The controller an edge test runs as, on a test server `s` already started: Northwind's first controller with card
 * readers and its first door (or what `pick` chooses, its own setup done), its edge key issued by Northwind's
 * administrator. `edge()` starts an edge on it in a new data directory (reconnecting fast); `close()` stops every edge
 * started, closes the server and removes the data directories.
 */
export async function edgeOfFirstController(s: ServerUnderTest, pick?: (northwind: number, admin: string) => Promise<{ controller: number; door: number }>) {
  const northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
  const admin = await s.loginTo('admin', 'NORTHWIND');
  const first = async () => {
    const { rows } = await s.db.query<{ id: number; door_id: number }>(
      `select c.id, min(r.door_id) as door_id from controllers c join card_readers r on r.controller_id = c.id
        where c.client_id = $1 group by c.id order by c.id limit 1`,
      [northwind],
    );
    return { controller: Number(rows[0].id), door: Number(rows[0].door_id) };
  };
  const { controller, door } = await (pick ?? first)(northwind, admin);
  const made = await s.call('POST', `${controllersResource.api}/${controller}/edge-key`, { token: admin, body: {} });
  if (made.status !== 200) throw new Error(`the edge key of controller ${controller}: ${made.status} ${JSON.stringify(made.body)}`);
  const dirs: string[] = [];
  const edges: Edge[] = [];
  return {
    northwind,
    admin,
    controller,
    door,
    key: made.body.apiKey as string,
    dirs,
    edges,
    /** A new data directory, removed by close(). */
    dataDir(prefix = 'gatehouse-edge-') {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    /** An edge of this controller (its key, on `s` unless `server` says otherwise), stopped by close(). */
    edge(opts: Partial<EdgeOptions> = {}) {
      const e = startEdge({
        server: s.base,
        key: made.body.apiKey,
        backoff: { first: 50, max: 300 },
        log: () => {},
        ...opts,
        dataDir: opts.dataDir ?? this.dataDir(),
      });
      edges.push(e);
      return e;
    },
    async close() {
      for (const e of edges) e.stop();
      await s.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
export type EdgeFixture = Awaited<ReturnType<typeof edgeOfFirstController>>;
