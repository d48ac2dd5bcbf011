// `npm start` / `npm run serve`: open (or create) the database, migrate, seed demo data on first start,
// serve the console, the REST API and the real-time endpoints on one port.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildServer } from './app';
import { openDb, type Db } from './db/db';
import { migrate } from './db/migrations';
import { DEMO_PASSWORD, DEMO_USERS, seed } from './db/seed';

const env = process.env;
const port = Number(env.PORT ?? 8080);
const host = env.HOST ?? '0.0.0.0';
const dataDir = resolve(env.DATA_DIR ?? 'data');

async function secret(db: Db): Promise<string> {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const { rows } = await db.query<{ value: string }>(`select value from server_secrets where name = 'jwt'`);
  if (rows[0]) return rows[0].value;
  const value = randomBytes(32).toString('base64url');
  await db.query(`insert into server_secrets (name, value) values ('jwt', $1) on conflict (name) do nothing`, [value]);
  return value;
}

async function main() {
  if (!env.DATABASE_URL) mkdirSync(dataDir, { recursive: true });
  const db = await openDb({ databaseUrl: env.DATABASE_URL || undefined, dataDir });
  await migrate(db);
  const seeded = await seed(db);
  const app = await buildServer({
    db,
    jwtSecret: await secret(db),
    jwtLifetimeS: Number(env.JWT_LIFETIME_S ?? 8 * 3600),
    lockout: { attempts: Number(env.LOCKOUT_ATTEMPTS ?? 5), minutes: Number(env.LOCKOUT_MINUTES ?? 15) },
    logger: env.LOG === '1',
  });
  await app.listen({ port, host });
  const shown = host === '0.0.0.0' ? 'localhost' : host;
  console.log(`\nGatehouse ${seeded ? '(demo data seeded) ' : ''}is running at http://${shown}:${port}`);
  console.log(`Database: ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${dataDir}`}`);
  console.log(`Demo sign-ins (password ${DEMO_PASSWORD}):`);
  for (const u of DEMO_USERS) console.log(`  ${u.username.padEnd(10)} ${u.what}`);
  const stop = async () => { await app.close(); await db.close(); process.exit(0); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => { console.error(e); process.exit(1); });
