// One small database interface over two engines with the same SQL: PGlite (embedded, default) and
// PostgreSQL through `pg` when DATABASE_URL is set.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

export async function openPglite(dataDir: string): Promise<Db> {
  const lite = await PGlite.create(dataDir);
  const wrap = (q: { query: PGlite['query']; exec: PGlite['exec'] }): Omit<Db, 'transaction' | 'close' | 'kind'> => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await q.query<T>(sql, params as any[]);
      return { rows: r.rows };
    },
    async exec(sql: string) { await q.exec(sql); },
  });
  let chain: Promise<unknown> = Promise.resolve();
  const db: Db = {
    kind: 'pglite',
    ...wrap(lite),
    // PGlite has one connection: serialise transactions so two never interleave
    transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      const run = chain.then(() => lite.transaction((tx) => fn({ ...wrap(tx as any), kind: 'pglite', transaction: (f) => f(db), close: async () => {} } as Db)));
      chain = run.catch(() => {});
      return run as Promise<T>;
    },
    close: () => lite.close(),
  };
  return db;
}

export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // an idle connection the server side closed (restart, failover, a dropped test database) is not a crash: the
  // pool forgets it and opens another on the next query
  pool.on('error', (e) => { console.warn(`postgres: idle connection lost (${(e as Error).message})`); });
  await pool.query('select 1');
  const fromClient = (c: pg.Pool | pg.PoolClient) => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await c.query(sql, params as any[]);
      return { rows: r.rows as T[] };
    },
    async exec(sql: string) { await c.query(sql); },
  });
  const db: Db = {
    kind: 'postgres',
    ...fromClient(pool),
    async transaction<T>(fn: (tx: Db) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Db = { kind: 'postgres', ...fromClient(client), transaction: (f) => f(tx), close: async () => {} };
        const out = await fn(tx);
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
  return db;
}

export function openDb(opts: { databaseUrl?: string; dataDir: string }): Promise<Db> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl) : openPglite(opts.dataDir);
}
