// `npm start` / `npm run serve`: open (or create) the database, migrate, seed demo data on first start,
// serve the console, the REST API and the real-time endpoints on one port.
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Sentence } from '../contract';
import { checkDataDir, dataDirHolder, holdDataDir, openDb, type Db } from './db/db';
import { witnessDirProblem } from './audit/witness';
import type { CardConnectorSimulator } from './simulator/cardConnector';
import type { CompanionSimulator } from './simulator/companion';

const env = process.env;
const port = Number(env.PORT ?? 8080);
const host = env.HOST ?? '0.0.0.0';
const dataDir = resolve(env.DATA_DIR ?? 'data');
// backups of the embedded database (Server → Backup and restore): BACKUP_DIR, by default beside the data directory
const backupDir = resolve(env.BACKUP_DIR ?? join(dirname(dataDir), `${basename(dataDir)}-backups`));

// issue 45: each signed audit head also goes to a witness kept apart from the database (a directory outside DATA_DIR)
const witnessDir = env.AUDIT_WITNESS_DIR ? resolve(env.AUDIT_WITNESS_DIR) : null;

async function main() {
  const witnessProblem = witnessDir ? witnessDirProblem(witnessDir, env.DATABASE_URL ? null : dataDir) : null;
  if (witnessProblem) {
    console.error(`\nGatehouse cannot start: ${witnessProblem}.\n`);
    process.exit(1);
  }
  if (!env.DATABASE_URL) {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch {
      /* reported just below */
    }
    // issue 13: say plainly, before anything else, that the embedded database has nowhere to write
    const dir = checkDataDir(dataDir);
    if (!dir.writable) {
      console.error(`\nGatehouse cannot start: ${dir.problem}.\nFree some space or give the server a writable DATA_DIR, then start it again.\n`);
      process.exit(1);
    }
  }
  if (!env.DATABASE_URL) {
    // the embedded database has one user at a time: a second server on it (a restart before the old process ended)
    // would damage it, so it refuses; tools (npm run audit) read the same mark to say "stop the server"
    const holder = dataDirHolder(dataDir);
    if (holder) {
      console.error(
        `\nGatehouse cannot start: another Gatehouse server (process ${holder}) is using the embedded database in ${dataDir}.\nStop it first, or give this one another DATA_DIR.\n`,
      );
      process.exit(1);
    }
    holdDataDir(dataDir);
  }
  // the server's modules only now, once the start is known to go on: a start refused above (a directory it cannot write,
  // another server on it) answered after loading all of them, about 3.5 s of processor time (crash.test.ts starts two)
  const [
    { API, fill, webhookBackoffMs },
    { buildServer, trustProxyOf },
    { recoverInterruptedRestore, replaceDataDir },
    { migrate },
    { DEMO_PASSWORD, DEMO_USERS, seed },
  ] = await Promise.all([import('../contract'), import('./app'), import('./backup/backups'), import('./db/migrate'), import('./db/seed')]);
  if (!env.DATABASE_URL && recoverInterruptedRestore(dataDir)) console.error('A restore was cut off before it finished: the database is as it was before it.');
  let db = await openDb({ databaseUrl: env.DATABASE_URL || undefined, dataDir });
  await migrate(db);
  const seeded = await seed(db);
  // Local device simulators alongside the server (issue 5): COMPANION=on, CARD_CONNECTOR=on. The card connector
  // may announce another version (CARD_CONNECTOR_VERSION=v0.9.0, to see the outdated message) and start with the
  // sample MyKad inserted (CARD_CONNECTOR_CARD=on); its reader also answers /MyKad/* on this server.
  const devices = await startDevices();
  const reader = devices.cardConnector;
  const build = (current: Db) =>
    buildServer({
      db: current,
      jwtSecret: env.JWT_SECRET || undefined, // else generated once and kept in the database
      jwtLifetimeS: Number(env.JWT_LIFETIME_S ?? 8 * 3600),
      lockout: { attempts: Number(env.LOCKOUT_ATTEMPTS ?? 5), minutes: Number(env.LOCKOUT_MINUTES ?? 15) },
      // per address, on sign-in, reset, registration and change-password; RATE_LIMIT_MAX=0 turns it off
      rateLimit: env.RATE_LIMIT_MAX === '0' ? false : { max: Number(env.RATE_LIMIT_MAX ?? 20), windowMs: Number(env.RATE_LIMIT_WINDOW_S ?? 60) * 1000 },
      // server errors, faults and start-up are always logged (LOG=0 silences them); LOG=1 logs every request too
      logger: env.LOG !== '0',
      logRequests: env.LOG === '1',
      dataDir: env.DATABASE_URL ? null : dataDir,
      auditWitnessDir: witnessDir,
      // a REST read only looks at the card: it does not push data_received to the consoles
      cardReader: reader ? { readers: () => reader.readers(), readCard: () => reader.card() } : null,
      // the hardware simulator (issue 4): on unless SIMULATOR=off; SIMULATOR_RATE random events per second
      simulator: env.SIMULATOR === 'off' ? false : { rate: Number(env.SIMULATOR_RATE ?? 1) },
      testHooks: env.E2E === '1',
      staticDir: env.STATIC_DIR || undefined, // the built console; dist/ by default
      trustProxy: trustProxyOf(env.TRUST_PROXY), // behind a reverse proxy: which one's X-Forwarded-For to believe
      // web hook deliveries retry after 5 s, 10 s, 20 s …; WEBHOOK_BACKOFF_MS sets the first step (1 s under E2E=1)
      // a web hook may call this machine or the site network only when the installation says so (e2e receivers do)
      allowPrivateWebhookTargets: env.WEBHOOK_PRIVATE_TARGETS === 'allow' || env.E2E === '1',
      webhooks: {
        backoffMs: (n: number) => webhookBackoffMs(n, Number(env.WEBHOOK_BACKOFF_MS ?? (env.E2E === '1' ? 1000 : 5000))),
        pollMs: env.E2E === '1' ? 250 : 1000,
      },
      // on PostgreSQL: pg_dump archives, restored in place by pg_restore (no restart); BACKUP_DIR is where they are kept
      backups: env.DATABASE_URL
        ? { dir: backupDir, databaseUrl: env.DATABASE_URL }
        : { dir: backupDir, restart: (image, after, settled) => void restart(image, after, settled) },
    });
  let app = await build(db);
  await app.listen({ port, host });
  // a restore (server/backup/routes.ts): the services stop, the data directory is replaced by the backup's image (put
  // back when it does not open), brought up to date, and the services start again on the same port
  let restarting = false;
  async function restart(image: string, after: (restored: Db) => Promise<void>, settled: (restored: boolean, problem: Sentence | null) => void) {
    if (restarting) return;
    restarting = true;
    try {
      console.log(`Restoring ${basename(image)}: the services stop and start again with it`);
      await app.close();
      await db.close();
      const next = await replaceDataDir(dataDir, image);
      db = next.db;
      holdDataDir(dataDir); // the directory was replaced: marked as this server's again
      if (next.restored) {
        await migrate(db);
        await after(db);
      } else console.error(`The backup did not open (${next.problem}): the database is as it was.`);
      app = await build(db);
      await app.listen({ port, host });
      settled(
        next.restored,
        next.restored
          ? null
          : fill('backup.didNotOpen', 'The backup did not open ({problem}): the database is as it was.', { problem: next.problem ?? 'unknown' }),
      );
      console.log(next.restored ? 'Restored: Gatehouse is running again with the backup.' : 'Gatehouse is running again without the restore.');
    } catch (e) {
      console.error('The restore failed and the server cannot go on:', e);
      process.exit(1);
    } finally {
      restarting = false;
    }
  }
  // MEMORY_LOG_S=n: where the process's memory is, every n seconds (the ingest bench reads it; PGlite's memory is in
  // `external`: one WebAssembly memory that grows and never shrinks)
  const memoryEvery = Number(env.MEMORY_LOG_S ?? 0);
  if (memoryEvery > 0) {
    const mb = (n: number) => Math.round(n / 1048576);
    setInterval(() => {
      const m = process.memoryUsage();
      app.log.info(
        { memoryMb: { rss: mb(m.rss), heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers) } },
        'memory',
      );
    }, memoryEvery * 1000).unref();
  }
  if (devices.companion) console.log(`Companion simulator: ${devices.companion.url}`);
  if (devices.cardConnector)
    console.log(
      `Card connector simulator: ${devices.cardConnector.url} (${devices.cardConnector.version})${devices.cardConnector.card() ? ', card inserted' : ''}`,
    );
  const shown = host === '0.0.0.0' ? 'localhost' : host;
  console.log(`\nGatehouse ${seeded ? '(demo data seeded) ' : ''}is running at http://${shown}:${port}`);
  console.log(`Database: ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${dataDir}`}`);
  console.log(`Demo sign-ins (password ${DEMO_PASSWORD}):`);
  for (const u of DEMO_USERS) console.log(`  ${u.username.padEnd(10)} ${u.what}`);
  console.log(
    `Device interface: POST ${API.deviceEvents} with a service account's API key (role "Device interface", Manage → Service accounts): Authorization: Bearer gh_…`,
  );
  const stop = async () => {
    await app.close();
    await devices.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

const on = (v: string | undefined) => v === 'on' || v === '1' || v === 'true';

async function startDevices(): Promise<{ companion: CompanionSimulator | null; cardConnector: CardConnectorSimulator | null; close(): Promise<void> }> {
  const companion = on(env.COMPANION) ? await (await import('./simulator/companion')).startCompanionSimulator() : null;
  const cardConnector = on(env.CARD_CONNECTOR)
    ? await (await import('./simulator/cardConnector')).startCardConnectorSimulator({ version: env.CARD_CONNECTOR_VERSION || undefined })
    : null;
  if (cardConnector && on(env.CARD_CONNECTOR_CARD)) cardConnector.insertCard();
  return {
    companion,
    cardConnector,
    close: async () => {
      await Promise.all([companion?.close(), cardConnector?.close()]);
    },
  };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
