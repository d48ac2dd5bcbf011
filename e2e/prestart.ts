// `node --import tsx e2e/prestart.ts`, with E2E_SEEDED_TEMPLATE set: starts the Playwright workers' servers ahead
// (e2e/server.ts `PRESTARTED_ENV`), one after another, from the seeded template, and prints them as one line of JSON.
// It stays their parent until the last of them has ended (the workers stop them: a process of its own has none to
// reap it, and a server that ended but was not reaped still holds its data directory for the next start there).
// scripts/test.mjs runs it beside the server suite's PostgreSQL step, hands the line to Playwright, and stops whatever
// is left at the end.
import config from '../playwright.config';
import { ownServer, TEMPLATE_ENV, WORKER_ENV, type Prestarted } from './server';

if (!process.env[TEMPLATE_ENV]) throw new Error(`${TEMPLATE_ENV} is not set: the servers would migrate and seed their own databases`);
const started: Prestarted[] = [];
for (let i = 0; i < Number(config.workers); i++) {
  const name = `worker${i}`; // as e2e/fixtures.ts names the server of the worker of parallelIndex i
  const server = await ownServer(name, WORKER_ENV);
  started.push({ name, port: Number(new URL(server.url).port), dataDir: server.dataDir, pid: server.pid! });
}
console.log(JSON.stringify(started));
// (ends by itself once every server it started has exited: their processes are all that keeps it)
