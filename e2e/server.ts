// A server of its own: each Playwright worker has one (e2e/fixtures.ts), and specs that stop and restart a server
// start another; same entry point as `npm start`, its own port and data directory, the built console from E2E_DIST or dist/.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, rmSync } from 'node:fs';

export interface OwnServer {
  url: string;
  dataDir: string;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops it and deletes its database and the backups kept beside it (nothing left in .tmp). */
  dispose: () => Promise<void>;
}

export async function ownServer(name: string, extraEnv: Record<string, string> = {}): Promise<OwnServer> {
  const port = 22000 + Math.floor(Math.random() * 3000);
  const url = `http://127.0.0.1:${port}`;
  const dataDir = `.tmp/e2e-${name}-${port}`;
  for (const dir of [dataDir, `${dataDir}-witness`]) rmSync(dir, { recursive: true, force: true }); // a fresh database with the demo data, whatever ran on this port before
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    // the audit heads' witness, apart from the database (issue 45)
    AUDIT_WITNESS_DIR: `${dataDir}-witness`,
    DATABASE_URL: '',
    STATIC_DIR: process.env.E2E_DIST ?? '',
    E2E: '1',
    SIMULATOR_RATE: '0',
    RATE_LIMIT_MAX: '100000',
    ...extraEnv,
  };
  let child: ChildProcess | null = null;
  async function start() {
    // its log (Fastify's, start-up, a crash's last words) is kept beside the test results, for a failure to be read
    mkdirSync('test-results/servers', { recursive: true });
    const log = openSync(`test-results/servers/${name}-${port}.log`, 'a');
    child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: ['ignore', log, log], detached: true });
    // a server starts in ~15 s alone; beside vitest's own database set-up on a loaded machine it took over 90
    const until = Date.now() + 180_000;
    for (;;) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) return;
      } catch {
        /* not up yet */
      }
      if (Date.now() > until) throw new Error(`${name} server did not start on ${url}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  async function stop() {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    process.kill(-c.pid!, 'SIGKILL'); // the whole group (node with tsx's loader, started without npx: npx alone took a second of processor time); like a crash, no goodbye
    await exited;
    child = null;
  }
  async function dispose() {
    await stop();
    for (const dir of [dataDir, `${dataDir}-backups`, `${dataDir}-witness`]) rmSync(dir, { recursive: true, force: true });
  }
  await start();
  return { url, dataDir, stop, start, dispose };
}
