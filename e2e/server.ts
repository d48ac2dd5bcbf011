// A server of its own: each Playwright worker has one (e2e/fixtures.ts), and specs that stop and restart a server
// start another; same entry point as `npm start`, its own port and data directory, the built console from E2E_DIST or dist/.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';

export interface OwnServer {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops it as `npm start`'s server stops on Ctrl-C (SIGTERM: its database closed cleanly, so it can be copied). */
  close: () => Promise<void>;
  /** Stops it and deletes its database and the backups kept beside it (nothing left in .tmp). */
  dispose: () => Promise<void>;
}

/** A port nobody listens on now: the system's choice for a listener of port 0 (a random pick collided with another
 *  worker's server: the new one died of EADDRINUSE while the health check answered from the other, issue 51). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The database of a server that has started once and stopped (migrated, the demo data seeded) and its audit witness:
 * e2e/globalSetup.ts makes it once a run, and every server on the embedded database starts from a copy of it instead
 * of migrating and seeding anew (about 21 s of processor time a server instead of 9; at load 17, 92 s to listening
 * instead of 38): the same data a fresh server seeds, as of the run's start, which the workers' servers, started
 * then, already serve to every spec.
 */
export const TEMPLATE_ENV = 'E2E_SEEDED_TEMPLATE';
const witnessOf = (dataDir: string) => `${dataDir}-witness`;

export async function ownServer(name: string, extraEnv: Record<string, string> = {}): Promise<OwnServer> {
  let port = await freePort();
  let url = `http://127.0.0.1:${port}`;
  let dataDir = `.tmp/e2e-${name}-${port}`;
  const envOf = () => ({
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // the audit heads' witness, apart from the database (issue 45)
    AUDIT_WITNESS_DIR: witnessOf(dataDir),
    DATABASE_URL: '',
    STATIC_DIR: process.env.E2E_DIST ?? '',
    E2E: '1',
    SIMULATOR_RATE: '0',
    RATE_LIMIT_MAX: '100000',
    ...extraEnv,
  });
  // a fresh database with the demo data, whatever ran on this port before: the run's seeded copy (a server on
  // PostgreSQL, DATABASE_URL in extraEnv, migrates and seeds its own database)
  const template = envOf().DATABASE_URL ? undefined : process.env[TEMPLATE_ENV];
  const fresh = () => {
    for (const dir of [dataDir, witnessOf(dataDir)]) rmSync(dir, { recursive: true, force: true });
    if (template) {
      cpSync(template, dataDir, { recursive: true });
      cpSync(witnessOf(template), witnessOf(dataDir), { recursive: true });
      rmSync(join(dataDir, 'gatehouse-server.pid'), { force: true }); // (removed as the template's server ended: never another's mark)
    }
  };
  fresh();
  let child: ChildProcess | null = null;
  /** Starts the server and waits until it is up: its own log says it listens on its port (a health answer alone may
   *  come from another process on the port) and the health check answers. False when the process ended first. */
  async function startOnce(): Promise<boolean> {
    // its log (Fastify's, start-up, a crash's last words) is kept beside the test results, for a failure to be read
    mkdirSync('test-results/servers', { recursive: true });
    const logPath = `test-results/servers/${name}-${port}.log`;
    const log = openSync(logPath, 'a');
    const from = statSync(logPath).size;
    const c = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: envOf(), stdio: ['ignore', log, log], detached: true });
    child = c;
    // a server starts in ~15 s alone; beside vitest's own database set-up on a loaded machine it took over 90
    const until = Date.now() + 180_000;
    for (;;) {
      if (c.exitCode !== null || c.signalCode !== null) return false;
      const said = readFileSync(logPath).subarray(from).toString();
      if (said.includes(`listening at ${url}`)) {
        try {
          if ((await fetch(`${url}/api/health`)).ok) return true;
        } catch {
          /* not up yet */
        }
      }
      if (Date.now() > until) throw new Error(`${name} server did not start on ${url}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  async function start() {
    if (!(await startOnce())) throw new Error(`${name} server on ${url} ended while starting: see test-results/servers/${name}-${port}.log`);
  }
  async function stop(signal: NodeJS.Signals = 'SIGKILL') {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    process.kill(-c.pid!, signal); // the whole group (node with tsx's loader, started without npx: npx alone took a second of processor time); SIGKILL: like a crash, no goodbye
    await exited;
    child = null;
  }
  async function dispose() {
    await stop();
    for (const dir of [dataDir, `${dataDir}-backups`, `${dataDir}-witness`]) rmSync(dir, { recursive: true, force: true });
  }
  // the first start may find its port taken after all (another process bound it between the probe and the start): a
  // new port, up to three times; a restart keeps its port (its address is the test's)
  for (let attempt = 1; !(await startOnce()); attempt++) {
    if (attempt === 3) throw new Error(`${name} server ended while starting three times: see test-results/servers/${name}-*.log`);
    fresh();
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    dataDir = `.tmp/e2e-${name}-${port}`;
    fresh();
  }
  return { url, dataDir: resolve(dataDir), stop: () => stop(), start, close: () => stop('SIGTERM'), dispose };
}
