// Issue 27: a full disk is an answer, not a hang. PGlite keeps its data directory on disk through Emscripten's NODEFS,
// and what PostgreSQL does when that disk is full is not always an error: a relation that cannot grow fails the
// statement ("could not extend file …: No space left on device", SQLSTATE 53100), but a commit whose WAL needs a new
// 16 MB segment fails inside a critical section, and PGlite (one process, no postmaster to restart it) is then left
// spinning in XLogFlush on the Node main thread: no request, read, health check or timer is served again. So the
// embedded database must never be written with less room than a WAL segment or two: before a statement the free
// space of the data directory is looked at (statfs, at most every STATFS_EVERY_MS: a statement of a busy ingest costs
// a clock reading, not a system call), and below MIN_FREE_BYTES PGlite is put in
// read-only mode (default_transaction_read_only: PostgreSQL itself refuses every write, reads go on). A probe every
// second takes it out again once there is room. A write refused that way, or one PostgreSQL refused for want of space,
// throws DiskFullError, which the server answers with 503 and DISK_FULL.
import { statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a write answers while the data directory is full. */
export const DISK_FULL = "The server's disk is full: changes cannot be saved until space is freed";
/** What a write answers while the data directory cannot be written for another reason than space (issue 45). */
export const DATA_DIR_READ_ONLY = "The server's data directory is read-only: changes cannot be saved until it can be written again";
/** The words for a storage state that refuses writes. */
export const refusedWrites = (s: { readOnly?: boolean } | null | undefined) => (s?.readOnly ? DATA_DIR_READ_ONLY : DISK_FULL);

/** Free space below which the data directory counts as full: two WAL segments (16 MB each). */
export const MIN_FREE_BYTES = 32 * 1024 * 1024;
/** How long a reading of the free space holds for the statements after it: writes of 50 ms cannot fill 32 MiB. */
export const STATFS_EVERY_MS = 50;

export class DiskFullError extends Error {
  readonly code = 'GH_DISK_FULL';
  constructor(
    readonly problem: string,
    options?: { cause?: unknown },
    /** the directory cannot be written at all (read-only file system, permissions), not out of space */
    readonly readOnly = false,
  ) {
    super(readOnly ? DATA_DIR_READ_ONLY : DISK_FULL, options);
    this.name = 'DiskFullError';
  }
}

/** Whether `err` is a write refused for want of space: ours, PostgreSQL's (53100), or the file system's (ENOSPC, EDQUOT). */
export function isDiskFull(err: unknown): boolean {
  if (err instanceof DiskFullError) return true;
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === 'GH_DISK_FULL' || e.code === '53100' || e.code === 'ENOSPC' || e.code === 'EDQUOT') return true;
  return typeof e.message === 'string' && /no space left on device|disk quota exceeded/i.test(e.message);
}

export interface DataDirState {
  writable: boolean;
  /** not writable for another reason than space (read-only file system, permissions, gone) */
  readOnly?: boolean;
  freeBytes: number | null;
  problem?: string;
}

/** Free bytes of the file system that holds `dir` (null where statfs cannot tell). */
export function freeBytesOf(dir: string): number | null {
  try {
    const st = statfsSync(dir);
    return Number(st.bavail) * Number(st.bsize);
  } catch {
    return null;
  }
}

const mib = (n: number) => Math.round(n / 1024 / 1024);
const lowSpace = (dir: string, free: number, minFree: number) =>
  `The data directory ${dir} is full: ${mib(free)} MiB free, at least ${mib(minFree)} MiB needed`;

/** Whether the embedded database's directory can be written and has room: a probe file written and removed, and statfs. */
export function checkDataDir(dir: string, minFree = MIN_FREE_BYTES): DataDirState {
  const freeBytes = freeBytesOf(dir);
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    writeFileSync(probe, 'ok');
    unlinkSync(probe);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOSPC'
        ? 'is full (no space left on the device)'
        : code === 'EDQUOT'
          ? 'is full (its disk quota is used up)'
          : code === 'EROFS'
            ? 'is on a read-only file system'
            : code === 'ENOENT'
              ? 'does not exist'
              : `cannot be written (${code ?? (e as Error).message})`;
    return { writable: false, readOnly: code !== 'ENOSPC' && code !== 'EDQUOT', freeBytes, problem: `The data directory ${dir} ${why}` };
  }
  if (freeBytes !== null && freeBytes < minFree) return { writable: false, freeBytes, problem: lowSpace(dir, freeBytes, minFree) };
  return { writable: true, freeBytes };
}

export interface StorageState {
  /** writes are refused (out of space, or the directory cannot be written: readOnly) */
  full: boolean;
  freeBytes: number | null;
  problem?: string;
  readOnly?: boolean;
}

/** The data directory's state as the database wrapper keeps it (Db.storage). */
export interface Storage {
  state(): StorageState;
  /** Called once on each change (full, room again): the server logs it. Returns the unsubscribe. */
  onChange(listener: (s: StorageState) => void): () => void;
}

export interface DiskGuard extends Storage {
  /** Before a statement: full now? (statfs). Puts the engine in read-only mode when it just became so. */
  before(): Promise<void>;
  /** A statement failed: a DiskFullError when it was for want of space (and the guard now says full), else `err`. */
  refused(err: unknown): unknown;
  /** Whether a statement must not run at all while full (maintenance that writes WAL without a transaction). */
  blocks(sql: string): boolean;
  stop(): void;
}

/**
 * `setReadOnly` switches the engine's default_transaction_read_only (run outside any transaction); `probeMs`: how
 * often the directory is looked at again while nothing is asked of the database (and how soon room is noticed).
 */
export function createDiskGuard(dir: string, setReadOnly: (on: boolean) => Promise<void>, opts: { minFreeBytes?: number; probeMs?: number } = {}): DiskGuard {
  const minFree = opts.minFreeBytes ?? MIN_FREE_BYTES;
  let state: StorageState = { full: false, freeBytes: freeBytesOf(dir) };
  const listeners = new Set<(s: StorageState) => void>();
  let applied = false; // the engine's read-only mode as last set
  let applying: Promise<void> | null = null;
  let measuredAt = 0; // when before() last read the free space

  const apply = (): Promise<void> => {
    if (applying) return applying.then(() => (applied === state.full ? undefined : apply()));
    if (applied === state.full) return Promise.resolve();
    const want = state.full;
    applying = setReadOnly(want)
      .then(
        () => {
          applied = want;
        },
        () => {
          /* the engine is closing: left as it was */
        },
      )
      .finally(() => {
        applying = null;
      });
    return applying;
  };
  const change = (next: StorageState) => {
    const was = state.full;
    state = next;
    if (was !== next.full) for (const l of listeners) l(next);
  };
  const full = (problem: string, freeBytes: number | null, readOnly = false) => {
    if (!state.full) change({ full: true, freeBytes, problem, readOnly });
  };

  const timer = setInterval(() => {
    const dirState = checkDataDir(dir, minFree);
    if (dirState.writable) {
      if (state.full) change({ full: false, freeBytes: dirState.freeBytes });
      else state = { ...state, freeBytes: dirState.freeBytes };
    } else full(dirState.problem!, dirState.freeBytes, dirState.readOnly);
    void apply();
  }, opts.probeMs ?? 1000);
  timer.unref();

  return {
    state: () => state,
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async before() {
      const now = Date.now();
      if (!state.full && now - measuredAt >= STATFS_EVERY_MS) {
        measuredAt = now;
        const free = freeBytesOf(dir);
        if (free !== null && free < minFree) full(lowSpace(dir, free, minFree), free);
      }
      if (applied !== state.full) await apply();
    },
    refused(err) {
      if (err instanceof DiskFullError) return err;
      const e = err as { code?: unknown } | null;
      // 25006: PostgreSQL refused a write in the read-only mode this guard set
      if (state.full && e && typeof e === 'object' && e.code === '25006') return new DiskFullError(state.problem!, { cause: err }, state.readOnly);
      if (!isDiskFull(err)) return err;
      full(`The database could not write to ${dir}: ${(err as Error).message}`, freeBytesOf(dir));
      void apply();
      return new DiskFullError(state.problem!, { cause: err });
    },
    blocks: (sql) => state.full && /^\s*(vacuum|analyze|checkpoint|reindex|cluster)\b/i.test(sql),
    stop() {
      clearInterval(timer);
      listeners.clear();
    },
  };
}
