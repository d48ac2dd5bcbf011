// One small database interface over two engines with the same SQL: PGlite (embedded, default) and
// PostgreSQL through `pg` when DATABASE_URL is set.
import { MemoryFS, PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createDiskGuard, type Storage } from './diskGuard';
import { SQLSTATE } from './pgError';

export {
  DATA_DIR_READ_ONLY,
  DISK_FULL,
  DiskFullError,
  MIN_FREE_BYTES,
  checkDataDir,
  isDiskFull,
  refusedWrites,
  type DataDirState,
  type Storage,
  type StorageState,
} from './diskGuard';

export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
  /**
   * Where the database is this process's alone (PGlite): calls `onNotice` on every NOTIFY of `channel`, before the
   * statement that committed it returns. Absent on PostgreSQL, where other servers write the same database.
   */
  listen?(channel: string, onNotice: () => void): Promise<void>;
  /** PGlite: the data directory as one tar image, for `openPglite(…, image)` (absent on PostgreSQL). */
  dump?(compression?: 'none' | 'gzip'): Promise<Blob>;
  /**
   * PGlite on a directory (issue 45): copies its data directory, checkpointed, to `to`, holding every statement while it
   * copies (a fraction of a second; the copy is asynchronous, the event loop goes on). A backup packs the copy apart.
   */
  snapshot?(to: string): Promise<void>;
  /** PGlite: true while `snapshot` holds the database's statements (they wait, they are not refused). */
  heldForSnapshot?(): boolean;
  /**
   * PGlite on a directory: whether its disk has room (server/db/diskGuard.ts). While it is full, writes throw
   * DiskFullError at once and reads go on; it clears by itself when space returns.
   */
  storage?: Storage;
}

/**
 * The embedded engine's settings beyond PGlite's own start parameters (issue 13: the server's memory). PGlite's
 * memory is one WebAssembly memory that grows and never gives pages back, so whatever PostgreSQL touches once stays
 * in the process: shared_buffers (PostgreSQL's default 128 MB) and maintenance_work_mem (64 MB, an index build of a
 * migration) are sized for a database with a machine of its own. `PGLITE_SETTINGS=name=value,…` overrides them.
 */
export const PGLITE_SETTINGS: Record<string, string> = { shared_buffers: '32MB', maintenance_work_mem: '16MB' };

export function pgliteStartParams(env: string | undefined = process.env.PGLITE_SETTINGS): string[] {
  const settings = { ...PGLITE_SETTINGS };
  for (const pair of (env ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [name, value] = pair.split('=');
    if (/^[a-z_]+$/.test(name ?? '') && value) settings[name] = value;
  }
  // PGlite's own parameters (`--single`, …) come first: a typed static, so an upgrade that renames it fails the typecheck
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
}

/**
 * One turn of the event loop, taken before each statement outside a transaction (issue 48). PGlite runs on the server's
 * own thread and its queued statements follow one another in promise callbacks, which run before any network event:
 * a handler of 22 statements (the shift handover) held every other request until its last, a cold dashboard's console
 * chunk among them (its 131 KB served after the handover's and the figures' answers, though it needed no database). A
 * turn between statements lets what came meanwhile be read and, when it needs no database, answered. It costs nothing
 * measurable alone: 150 GETs one after another, median, alternated with the code before, 3 runs each (load 2):
 * dashboard figures 9.0-11.3 against 9.1-11.3 ms, handover 14.5-19.1 against 14.6-19.9, a page of identities 2.5-3.8
 * against 2.6-3.1. Statements inside a transaction take none: nothing else can run between them anyway.
 */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `image`: start from a data directory dumped by `dumpPglite` instead of an empty one (the server tests start from one
 * migrated and seeded image, about 0.5 s, instead of PGlite's initdb, migrations and seed, about 3.5 s each), or, in
 * memory, from a file system that holds one already (server/testImage.ts `seededImageFs`: the image not unpacked again).
 */
export async function openPglite(dataDir: string, image?: Blob | MemoryFS, opts: { minFreeBytes?: number } = {}): Promise<Db> {
  // pg_trgm: the identity list's text search walks a trigram index (migration 023)
  const from = image instanceof MemoryFS ? { fs: image } : image ? { loadDataDir: image } : {};
  const options = { extensions: { pg_trgm }, startParams: pgliteStartParams(), ...from };
  // a new data directory: PGlite's initdb leaves its memory at 400–800 MB (it varies from run to run) and that memory
  // never shrinks; closed and opened again, the server starts with the 250–400 MB that serving needs
  if (!image && !dataDir.includes('://') && !existsSync(join(dataDir, 'PG_VERSION'))) await (await PGlite.create(dataDir, options)).close();
  const lite = await PGlite.create(dataDir, options);
  // issue 27: on a real directory, never let PGlite write with the disk (nearly) full: see server/db/diskGuard.ts
  const guard = dataDir.includes('://')
    ? null
    : createDiskGuard(
        dataDir,
        async (on) => {
          await lite.exec(`set default_transaction_read_only = ${on ? 'on' : 'off'}`);
        },
        { minFreeBytes: opts.minFreeBytes },
      );
  const refused = (e: unknown) => (guard ? guard.refused(e) : e);
  const wrap = (q: { query: PGlite['query']; exec: PGlite['exec'] }, top: boolean): Omit<Db, 'transaction' | 'close' | 'kind'> => ({
    async query<T>(sql: string, params: unknown[] = []) {
      if (top) await turn();
      if (top && guard) await guard.before();
      if (guard?.blocks(sql)) throw guard.refused({ code: 'ENOSPC', message: 'no space left on device' });
      try {
        const r = await q.query<T>(sql, params as any[]);
        return { rows: r.rows };
      } catch (e) {
        throw refused(e);
      }
    },
    async exec(sql: string) {
      if (top && guard) await guard.before();
      if (guard?.blocks(sql)) throw guard.refused({ code: 'ENOSPC', message: 'no space left on device' });
      try {
        await q.exec(sql);
      } catch (e) {
        throw refused(e);
      }
    },
  });
  let chain: Promise<unknown> = Promise.resolve();
  let held = false;
  const db: Db = {
    kind: 'pglite',
    ...wrap(lite, true),
    // PGlite has one connection: serialise transactions so two never interleave
    transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      const run = chain.then(async () => {
        if (guard) await guard.before();
        try {
          return await lite.transaction((tx) => fn({ ...wrap(tx as any, false), kind: 'pglite', transaction: (f) => f(db), close: async () => {} } as Db));
        } catch (e) {
          throw refused(e);
        } // a COMMIT refused for want of space
      });
      chain = run.catch(() => {});
      return run as Promise<T>;
    },
    close: async () => {
      guard?.stop();
      await lite.close();
    },
    dump: (compression = 'none') => lite.dumpDataDir(compression),
    ...(dataDir.includes('://')
      ? {}
      : {
          async snapshot(to: string) {
            // the data files as committed (little WAL to replay when the image opens), through the disk guard: on a full
            // disk it is refused with DiskFullError before PGlite tries (PGlite's own checkpoint on a full disk spun
            // and held the process)
            await db.exec('checkpoint');
            await lite.runExclusive(async () => {
              held = true;
              try {
                await cp(dataDir, to, { recursive: true, filter: (from) => basename(from) !== SERVER_PID_FILE });
              } finally {
                held = false;
              }
            });
          },
          heldForSnapshot: () => held,
        }),
    // PGlite queues a listener's call as it reads the committing statement's answer, ahead of that statement's caller
    async listen(channel, onNotice) {
      await lite.listen(channel, () => onNotice());
    },
    ...(guard ? { storage: { state: guard.state, onChange: guard.onChange } } : {}),
  };
  return db;
}

export async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // an idle connection the server side closed (restart, failover, a dropped test database) is not a crash: the
  // pool forgets it and opens another on the next query
  pool.on('error', (e) => {
    console.warn(`postgres: idle connection lost (${(e as Error).message})`);
  });
  await pool.query('select 1');
  const fromClient = (c: pg.Pool | pg.PoolClient) => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await c.query(sql, params as any[]);
      return { rows: r.rows as T[] };
    },
    async exec(sql: string) {
      await c.query(sql);
    },
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

/**
 * Whether `err` says the database cannot take writes now rather than that the request was wrong: disk full,
 * a read-only or vanished data directory, a read-only (standby) database, a lost connection. Those answer 503.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; errno?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  // SQLSTATE classes: 53 insufficient resources (53100 disk full), 58 system error (I/O), 57P admin shutdown and
  // cannot-connect-now, 08 connection exceptions, 25006 read-only transaction
  // (08P01, a protocol violation, is a statement our code built wrong, a bind that does not fit it: a 500 to mend, not
  // a database to wait for)
  if ((/^(53|58|57P|08)/.test(code) && code !== '08P01') || code === '25006') return true;
  if (['ENOSPC', 'EROFS', 'EACCES', 'EPERM', 'EDQUOT', 'EIO', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'].includes(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /no space left on device|read-only file system|could not (write|extend|open|create) file|PGlite is closed|Connection terminated/i.test(message);
}

/**
 * Whether the database refused a statement only for what another ran at the same moment (SQLSTATE 40001 serialization
 * failure, 40P01 deadlock detected): nothing of it was saved, and the same request sent again goes through.
 */
export function isTransientConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === SQLSTATE.serializationFailure || code === SQLSTATE.deadlockDetected;
}

/** What a 503 says. */
export const DATABASE_UNAVAILABLE = 'The database cannot take changes right now (its disk may be full or read-only); nothing was saved, try again later';

export interface WriteProbe {
  writable: boolean;
  problem?: string;
}

/** Whether the database accepts a write now: a one-row upsert, committed. */
export async function probeWrite(db: Db): Promise<WriteProbe> {
  // a backup copying the data directory holds statements for a moment: writes wait, they are not refused (issue 45:
  // health answers at once while a backup is taken)
  if (db.heldForSnapshot?.()) return { writable: true };
  try {
    await db.query(`insert into health_probe (id, at) values (1, now()) on conflict (id) do update set at = excluded.at`);
    return { writable: true };
  } catch (e) {
    return { writable: false, problem: (e as Error).message };
  }
}

/** The file the server keeps in an embedded DATA_DIR while it holds the database: its process id. */
export const SERVER_PID_FILE = 'gatehouse-server.pid';
/** Marks `dataDir` as held by this process until it exits (the file is removed then). */
export function holdDataDir(dataDir: string): void {
  const file = join(dataDir, SERVER_PID_FILE);
  try {
    writeFileSync(file, String(process.pid));
    process.once('exit', () => rmSync(file, { force: true }));
  } catch {
    /* a read-only data directory is reported where it matters */
  }
}
/** The process id of a live server holding the embedded database in `dataDir` (not this process), or null. */
export function dataDirHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, SERVER_PID_FILE), 'utf8'));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return null;
    try {
      process.kill(pid, 0); // throws ESRCH when there is no such process
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EPERM') return null; // EPERM: it lives, as another user
    }
    return pid;
  } catch {
    return null; // no file
  }
}
