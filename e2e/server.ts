// A server of its own: each Playwright worker has one (e2e/fixtures.ts), and specs that stop and restart a server
// start another; same entry point as `npm start`, its own port and data directory, the built console from E2E_DIST or dist/.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { serverProcessArgs } from '../server/processArgs';

export interface OwnServer {
  url: string;
  dataDir: string;
  /** The running server's process (the leader of its process group), or null while it is stopped. */
  readonly pid: number | null;
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

/**
 * What a worker's server (e2e/fixtures.ts) runs with beyond ownServer's own settings: a momentary unlock lasts two
 * minutes; a web hook delivery that failed is tried again after 200 ms, then 400 ms (the server's own default under
 * E2E=1 is 1 s, then 2 s: e2e/webhooks.spec.ts waited those 3 s out for its third try).
 */
export const WORKER_ENV = { DOOR_MOMENTARY_MS: '120000', WEBHOOK_BACKOFF_MS: '200' };

/**
 * Servers started ahead of Playwright (e2e/prestart.ts: `npm test` starts the workers' servers beside the server
 * suite's PostgreSQL step, where the processor has room, instead of at the start of the end-to-end run, where both
 * workers' servers and browsers start at once): by name, as a worker's fixture would have started them, with the same
 * settings, from the same seeded template. A server is taken once (its claim file); a worker started again after a
 * failure finds it disposed of and starts its own, as before.
 */
export const PRESTARTED_ENV = 'E2E_PRESTARTED';
export interface Prestarted {
  name: string;
  port: number;
  dataDir: string;
  pid: number;
}
/** Whether a process exists (one that ended and waits for its parent to reap it, a zombie, too: a server starting on
 *  its data directory would take it for the holder, server/db/db.ts `dataDirHolder`). */
const exists = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** Whether a process runs (a zombie does not). */
const alive = (pid: number) => {
  if (!exists(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return true; // no /proc: the signal's answer
  }
};
/** The server started ahead under `name`, claimed for this worker; null when there is none (left to be started). */
async function claimPrestarted(name: string): Promise<Prestarted | null> {
  let all: Prestarted[];
  try {
    all = JSON.parse(process.env[PRESTARTED_ENV] ?? '[]') as Prestarted[];
  } catch {
    return null;
  }
  const p = all.find((x) => x.name === name);
  if (!p || !alive(p.pid) || !existsSync(p.dataDir)) return null;
  try {
    writeFileSync(`${p.dataDir}-claimed`, String(process.pid), { flag: 'wx' }); // once: never two workers on one server
  } catch {
    return null;
  }
  try {
    if ((await fetch(`http://127.0.0.1:${p.port}/api/health`)).ok) return p;
  } catch {
    /* not answering: not used */
  }
  try {
    process.kill(-p.pid, 'SIGKILL');
  } catch {
    /* gone already */
  }
  return null;
}

export async function ownServer(name: string, extraEnv: Record<string, string> = {}): Promise<OwnServer> {
  const ahead = await claimPrestarted(name);
  let port = ahead?.port ?? (await freePort());
  let url = `http://127.0.0.1:${port}`;
  let dataDir = ahead ? relative(process.cwd(), ahead.dataDir) : `.tmp/e2e-${name}-${port}`;
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
  if (!ahead) fresh();
  let child: ChildProcess | null = null;
  /** The process group of a server started ahead by another process: not a child of this one. */
  let adopted: number | null = ahead?.pid ?? null;
  /** Starts the server and waits until it is up: its own log says it listens on its port (a health answer alone may
   *  come from another process on the port) and the health check answers. False when the process ended first. */
  async function startOnce(): Promise<boolean> {
    // its log (Fastify's, start-up, a crash's last words) is kept beside the test results, for a failure to be read
    mkdirSync('test-results/servers', { recursive: true });
    const logPath = `test-results/servers/${name}-${port}.log`;
    const log = openSync(logPath, 'a');
    const from = statSync(logPath).size;
    const c = spawn(process.execPath, serverProcessArgs(), { env: envOf(), stdio: ['ignore', log, log], detached: true });
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
    if (adopted !== null) {
      const pid = adopted;
      adopted = null;
      try {
        process.kill(-pid, signal);
      } catch {
        return; // gone already
      }
      // not this process's child: no exit event, so asked until it is gone and reaped by its parent (e2e/prestart.ts,
      // which waits for its servers), its pid then free, or at most 20 s
      for (const until = Date.now() + 20_000; exists(pid) && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
      return;
    }
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    process.kill(-c.pid!, signal); // the whole group (node with tsx's loader, started without npx: npx alone took a second of processor time); SIGKILL: like a crash, no goodbye
    await exited;
    child = null;
  }
  async function dispose() {
    await stop();
    for (const dir of [dataDir, `${dataDir}-backups`, `${dataDir}-witness`, `${dataDir}-claimed`]) rmSync(dir, { recursive: true, force: true });
  }
  // the first start may find its port taken after all (another process bound it between the probe and the start): a
  // new port, up to three times; a restart keeps its port (its address is the test's)
  for (let attempt = 1; !ahead && !(await startOnce()); attempt++) {
    if (attempt === 3) throw new Error(`${name} server ended while starting three times: see test-results/servers/${name}-*.log`);
    fresh();
    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    dataDir = `.tmp/e2e-${name}-${port}`;
    fresh();
  }
  return {
    url,
    dataDir: resolve(dataDir),
    get pid() {
      return adopted ?? child?.pid ?? null;
    },
    stop: () => stop(),
    start,
    close: () => stop('SIGTERM'),
    dispose,
  };
}
