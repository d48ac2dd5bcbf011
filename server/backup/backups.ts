// Backup and restore [0.7.2.0] (contract/backups.ts): the whole installation's embedded database as one gzip tar image
// (PGlite's own dump of its data directory), kept as a file in the backup directory (BACKUP_DIR; by default beside
// the data directory) with a small JSON file saying what it is. Restoring one: the current database is backed up
// first ("before restore"), then the process's services stop, the data directory is replaced by the image (the old
// one is put back if the image does not open), the database is migrated up to date and the services start again
// (server/main.ts `restart`). Auto-backups: `startAutoBackups` looks each minute (contract/resources/backups.ts).
// A backup holds every secret of the installation (sign-in hashes, the token signing key): its files are the server
// user's alone (0600, in a 0700 directory). On PostgreSQL (DATABASE_URL) a backup is the database's pg_dump (custom
// format, a .dump file) and a restore replays it into the same database without a restart (server/backup/postgres.ts);
// each backup's description says its engine, and a server lists and restores only its own engine's.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openAsBlob,
  openSync,
  readdirSync,
  readSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createGzip, gzip } from 'node:zlib';
import * as tar from 'tar';
import { is } from 'superstruct';
import {
  BACKUP_ID,
  BACKUP_UPLOAD_MAX_BYTES,
  BackupInfo,
  RestoreOutcome,
  sentenceValue,
  type BackupEngine,
  type BackupKind,
  type Sentence,
} from '../../contract';
import { openPglite, type Db } from '../db/db';
import { autoBackupSettingsRow, schemaVersionOf } from '../db/queries/backup';
import { loadMigrations } from '../db/migrate';
import { pipedToFile } from '../streams';
import { HttpError, fill, INVALID_REQUEST } from '../http/kit';
import { PGDMP_MAGIC, connectionOf, findPgTools, noTools, pgArchiveSchema, pgArchiveWhole, pgDump, toolProblem, type PgTools } from './postgres';

const gzipAsync = promisify(gzip);

/** What the routes say on an embedded server given no backup directory (the server tests' servers). */
export const NO_BACKUP_DIR = fill('backup.noBackupDir', 'This server was started without a place to keep backups (BACKUP_DIR)', {});

/** The newest migration this server knows: a backup of a newer one cannot be restored here. */
export const latestSchema = () => Math.max(...loadMigrations().map((m) => m.id));

/** A stored image as a Blob backed by its file: read as PGlite opens it, never whole into a Buffer first. */
const fileBlob = (path: string) => openAsBlob(path);
const imagePath = (dir: string, id: string, engine: BackupEngine = 'pglite') => join(dir, `${id}.${engine === 'postgres' ? 'dump' : 'tar.gz'}`);
const infoPath = (dir: string, id: string) => join(dir, `${id}.json`);

/** A new backup's id: when (UTC, to the second) and six random letters (contract BACKUP_ID). */
export function newBackupId(at = new Date()): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const letters = [...randomBytes(6)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');
  return `${stamp}-${letters}`;
}

/**
 * The stored backups of one engine, newest first (a file that is not one of ours is passed over, and so is a backup
 * of the other engine: a directory shared by an embedded and a PostgreSQL server lists each its own).
 */
export function listBackups(dir: string, engine: BackupEngine = 'pglite'): BackupInfo[] {
  if (!existsSync(dir)) return [];
  const out: BackupInfo[] = [];
  for (const f of readdirSync(dir)) {
    const m = /^(.+)\.json$/.exec(f);
    if (!m || !BACKUP_ID.test(m[1]) || !existsSync(imagePath(dir, m[1], engine))) continue;
    try {
      // (descriptions written before backups said their engine are the embedded database's)
      const info = { engine: 'pglite', ...JSON.parse(readFileSync(join(dir, f), 'utf8')) };
      if (is(info, BackupInfo) && info.id === m[1] && info.engine === engine) out.push(info);
    } catch {
      /* half-written: not listed */
    }
  }
  return out.sort((a, b) => (a.id < b.id ? 1 : -1));
}

/** One stored backup (404 for anything else: a malformed id is never a path). */
export function backupOf(dir: string, id: string, engine: BackupEngine = 'pglite'): BackupInfo {
  const found = BACKUP_ID.test(id) ? listBackups(dir, engine).find((b) => b.id === id) : undefined;
  if (!found) throw new HttpError(404, fill('record.notFound', '{what} not found', { what: 'Backup' }));
  return found;
}
export const backupFile = (dir: string, id: string, engine: BackupEngine = 'pglite') => imagePath(dir, backupOf(dir, id, engine).id, engine);

/** Writes an image and its description; the description last, so a backup is listed only once whole. */
function store(dir: string, id: string, image: Buffer | null, info: BackupInfo) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = imagePath(dir, id, info.engine);
  if (image) writeFileSync(path + '.part', image, { mode: 0o600 });
  renameSync(path + '.part', path);
  writeFileSync(infoPath(dir, id), JSON.stringify(info), { mode: 0o600 });
}

/** Takes a backup of the embedded database now (its services keep running; writes wait the moment its files are copied). */
export async function takeBackup(db: Db, dir: string, kind: BackupKind, takenBy: string | null, databaseUrl?: string): Promise<BackupInfo> {
  if (db.kind === 'postgres') return takePgBackup(db, dir, kind, takenBy, databaseUrl);
  if (!db.dump) throw new HttpError(409, NO_BACKUP_DIR);
  const schemaVersion = await schemaVersionOf(db);
  const at = new Date();
  const id = newBackupId(at);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = imagePath(dir, id, 'pglite');
  if (db.snapshot) {
    // issue 45: PGlite's own dump reads and packs every file on the event loop (about 3 s of a 7 MB backup, health
    // waiting); here the data directory is copied asynchronously while statements wait (a fraction of a second), then
    // the copy is packed and compressed as a stream (tar, zlib on libuv's threads) while the server goes on
    const copy = await mkdtemp(join(dir, '.snapshot-'));
    try {
      await db.snapshot(copy);
      await pipedToFile(path + '.part', 0o600, tar.c({ cwd: copy, portable: true }, readdirSync(copy)), createGzip());
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  } else {
    // an in-memory database (the tests' memory://): no directory to copy
    writeFileSync(path + '.part', await gzipAsync(Buffer.from(await (await db.dump('none')).arrayBuffer())), { mode: 0o600 });
  }
  const info: BackupInfo = { id, takenAt: at.toISOString(), kind, takenBy, bytes: statSync(path + '.part').size, schemaVersion, engine: 'pglite' };
  store(dir, id, null, info);
  return info;
}

/** The PostgreSQL tools this server uses, looked for once they are found (until then on every call: one installed later is found). */
const toolsFound = new WeakMap<Db, PgTools>();
export async function pgToolsOf(db: Db): Promise<PgTools> {
  const known = toolsFound.get(db);
  if (known) return known;
  const found = await findPgTools(db);
  if (!found.tools) throw noTools(found.problem);
  toolsFound.set(db, found.tools);
  return found.tools;
}

/** The database URL the tools connect with: the server's own (DATABASE_URL), on the database its pool is on. */
export function pgConnection(db: Db, databaseUrl = process.env.DATABASE_URL) {
  if (!databaseUrl)
    throw new HttpError(409, fill('backup.noDatabaseUrl', 'This server was not given its database’s URL (DATABASE_URL): its backups cannot be taken here', {}));
  return connectionOf(db, databaseUrl);
}

/** pg_dump of the whole database into the backup directory (streamed by pg_dump to the file, never into memory). */
async function takePgBackup(db: Db, dir: string, kind: BackupKind, takenBy: string | null, databaseUrl?: string): Promise<BackupInfo> {
  const tools = await pgToolsOf(db);
  const conn = await pgConnection(db, databaseUrl);
  const schemaVersion = await schemaVersionOf(db);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const at = new Date();
  const id = newBackupId(at);
  const part = imagePath(dir, id, 'postgres') + '.part';
  try {
    await pgDump(tools, conn, part);
  } catch (e) {
    rmSync(part, { force: true });
    throw new HttpError(503, fill('backup.notTaken', 'The backup could not be taken: {problem}', sentenceValue('problem', toolProblem(e))));
  }
  const info: BackupInfo = { id, takenAt: at.toISOString(), kind, takenBy, bytes: statSync(part).size, schemaVersion, engine: 'postgres' };
  store(dir, id, null, info);
  return info;
}

export function deleteBackup(dir: string, id: string, engine: BackupEngine = 'pglite'): BackupInfo {
  const info = backupOf(dir, id, engine);
  unlinkSync(infoPath(dir, id));
  rmSync(imagePath(dir, id, engine), { force: true });
  return info;
}

/** Keeps the newest `keep` automatic backups and deletes the older ones; returns the ids deleted. */
export function pruneAutoBackups(dir: string, keep: number, engine: BackupEngine = 'pglite'): string[] {
  const autos = listBackups(dir, engine).filter((b) => b.kind === 'auto');
  return autos.slice(keep).map((b) => deleteBackup(dir, b.id, engine).id);
}

const badFile = (said: Sentence) => new HttpError(400, INVALID_REQUEST, [{ field: 'file', ...said }]);
const PG_NOT_PGLITE = fill(
  'backup.pgNotPglite',
  'is a backup of PostgreSQL (a pg_dump archive): this server keeps its data in the embedded database and restores only its .tar.gz backups',
  {},
);
const PGLITE_NOT_PG = fill(
  'backup.pgliteNotPg',
  'is a gzip file, as backups of the embedded database are (.tar.gz): this server keeps its data in PostgreSQL and restores only pg_dump archives (.dump) of it',
  {},
);
const newerSchema = (version: number) =>
  fill('backup.newerSchema', 'was made by a newer Gatehouse (database version {version}; this server knows up to {known})', { version, known: latestSchema() });

/**
 * What a pg_dump archive holds (its newest migration), read by pg_restore. A PGlite image, not an archive, not a
 * Gatehouse database's, or one of a newer server: 400 naming the file.
 */
export async function inspectPgArchive(tools: PgTools, file: string): Promise<number> {
  const head = Buffer.alloc(5);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 5, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] === 0x1f && head[1] === 0x8b) throw badFile(PGLITE_NOT_PG);
  if (!head.equals(PGDMP_MAGIC)) throw badFile(fill('backup.notPgDump', 'is not a Gatehouse backup (a .dump this server made with pg_dump)', {}));
  const schemaVersion = await pgArchiveSchema(tools, file);
  if (!schemaVersion) throw badFile(fill('backup.notGatehouseDump', 'is not a Gatehouse backup: pg_restore does not read it as a Gatehouse database', {}));
  if (schemaVersion > latestSchema()) throw badFile(newerSchema(schemaVersion));
  if (!(await pgArchiveWhole(tools, file)))
    throw badFile(fill('backup.dumpNotWhole', 'is not a whole backup: pg_restore cannot read it to the end (the file is cut short or damaged)', {}));
  return schemaVersion;
}

/**
 * What an image holds, opened in memory: its newest migration. Not a Gatehouse database (not a tar of a PostgreSQL
 * data directory, no schema_migrations, no clients) or one of a newer server: 400 naming the file.
 */
/** How long opening an image apart may take before it is given up (a 4 GiB image opens in well under a minute). */
export const INSPECT_TIMEOUT_MS = 120_000;

/**
 * Checks that the image file at `path` is a Gatehouse backup this server can restore: its database opens (in a worker
 * thread: server/backup/inspectWorker.mjs, so a broken image can neither crash nor block the server) and its schema is
 * not newer than this server's.
 */
export async function inspectImage(path: string): Promise<{ schemaVersion: number; clients: number }> {
  const magic = new Uint8Array(await (await fileBlob(path)).slice(0, 5).arrayBuffer());
  if (Buffer.from(magic).equals(PGDMP_MAGIC)) throw badFile(PG_NOT_PGLITE);
  if (magic.length < 2 || magic[0] !== 0x1f || magic[1] !== 0x8b)
    throw badFile(fill('backup.notTarGz', 'is not a Gatehouse backup (a .tar.gz this server made)', {}));
  let opened: { schemaVersion: number; clients: number };
  try {
    opened = await openedApart(path);
  } catch {
    throw badFile(fill('backup.imageDamaged', 'is not a Gatehouse backup: its database does not open (the file is cut short or damaged)', {}));
  }
  if (!opened.schemaVersion) throw badFile(fill('backup.imageNotGatehouse', 'is not a Gatehouse backup: its database does not open', {}));
  if (opened.schemaVersion > latestSchema()) throw badFile(newerSchema(opened.schemaVersion));
  return opened;
}

/** PGlite's WebAssembly module, compiled once and handed to each worker (compiling it in every worker took seconds). */
let pgliteWasm: Promise<WebAssembly.Module> | null = null;
const compiledPglite = () =>
  (pgliteWasm ??= readFile(fileURLToPath(import.meta.resolve('@electric-sql/pglite/pglite.wasm'))).then((b) => WebAssembly.compile(b)));

async function openedApart(path: string): Promise<{ schemaVersion: number; clients: number }> {
  const wasm = await compiledPglite();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./inspectWorker.mjs', import.meta.url), { workerData: { path, wasm }, execArgv: [] });
    let settled = false;
    const end = (e: Error | null, v?: { schemaVersion: number; clients: number }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      if (e) reject(e);
      else resolve(v!);
    };
    const timer = setTimeout(() => end(new Error('the image took too long to open')), INSPECT_TIMEOUT_MS);
    worker.once('message', (v: { schemaVersion: number; clients: number }) => end(null, v));
    worker.once('error', (e) => end(e));
    worker.once('exit', (code) => end(new Error(`the image's check ended (${code})`)));
  });
}

/**
 * Reads an upload into the backup directory (at most BACKUP_UPLOAD_MAX_BYTES), checks it and lists it as 'uploaded'.
 * `pg`: this server is on PostgreSQL, and the upload must be a pg_dump archive its tools read.
 */
export async function receiveBackup(dir: string, body: Readable, takenBy: string, pg?: PgTools): Promise<BackupInfo> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const at = new Date();
  const id = newBackupId(at);
  const engine: BackupEngine = pg ? 'postgres' : 'pglite';
  const part = imagePath(dir, id, engine) + '.part';
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, next) {
      bytes += chunk.length;
      if (bytes > BACKUP_UPLOAD_MAX_BYTES)
        next(
          new HttpError(413, INVALID_REQUEST, [
            { field: 'file', ...fill('backup.tooLarge', 'is larger than a backup may be ({mib} MiB)', { mib: BACKUP_UPLOAD_MAX_BYTES / 1024 / 1024 }) },
          ]),
        );
      else next(null, chunk);
    },
  });
  try {
    await pipedToFile(part, 0o600, body, limit);
    if (!bytes) throw new HttpError(400, INVALID_REQUEST, [{ field: 'file', ...fill('backup.fileEmpty', 'is empty: choose a backup file', {}) }]);
    const schemaVersion = pg ? await inspectPgArchive(pg, part) : (await inspectImage(part)).schemaVersion;
    const info: BackupInfo = { id, takenAt: at.toISOString(), kind: 'uploaded', takenBy, bytes, schemaVersion, engine };
    store(dir, id, null, info);
    return info;
  } catch (e) {
    rmSync(part, { force: true });
    throw e;
  }
}

/**
 * Replaces the embedded database's data directory by a backup's image and opens it. The directory it replaces is put
 * aside first and back again when the image does not open, so a failed restore leaves the database as it was.
 */
export async function replaceDataDir(dataDir: string, image: string): Promise<{ db: Db; restored: boolean; problem?: string }> {
  const aside = `${dataDir}.replaced`;
  rmSync(aside, { recursive: true, force: true });
  renameSync(dataDir, aside);
  try {
    const db = await openPglite(dataDir, await fileBlob(image));
    rmSync(aside, { recursive: true, force: true });
    return { db, restored: true };
  } catch (e) {
    rmSync(dataDir, { recursive: true, force: true });
    renameSync(aside, dataDir);
    return { db: await openPglite(dataDir), restored: false, problem: (e as Error).message };
  }
}

const outcomePath = (dir: string) => join(dir, 'last-restore.json');

/** Records how the last restore went (contract RestoreOutcome): pending (`restored` null) when it starts, then its end. */
export function recordRestore(dir: string, outcome: RestoreOutcome): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(outcomePath(dir) + '.part', JSON.stringify(outcome), { mode: 0o600 });
  renameSync(outcomePath(dir) + '.part', outcomePath(dir));
}

/** The last restore recorded in the backup directory (none, or a file that is not one: null). */
export function lastRestore(dir: string): RestoreOutcome | null {
  try {
    const o = JSON.parse(readFileSync(outcomePath(dir), 'utf8'));
    return is(o, RestoreOutcome) ? o : null;
  } catch {
    return null;
  }
}

/**
 * At start-up: a restore cut off between putting the data directory aside and opening the image leaves it aside;
 * it is put back (the restore did not happen). Returns whether it was.
 */
export function recoverInterruptedRestore(dataDir: string): boolean {
  const aside = `${dataDir}.replaced`;
  if (!existsSync(aside)) return false;
  if (existsSync(join(dataDir, 'PG_VERSION')) && statSync(join(dataDir, 'PG_VERSION')).size > 0) {
    rmSync(aside, { recursive: true, force: true });
    return false;
  }
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(aside, dataDir);
  return true;
}

interface AutoBackupSettings {
  enabled: boolean;
  frequency: string;
  weekday: string;
  hour: number;
  keep: number;
}

/** Whether an automatic backup is due at `now` (UTC), the newest automatic one taken at `last`. */
export function autoBackupDue(s: AutoBackupSettings, now: Date, last: Date | null): boolean {
  if (!s.enabled || now.getUTCHours() !== s.hour) return false;
  if (s.frequency === 'weekly' && String(now.getUTCDay()) !== s.weekday) return false;
  return !last || now.getTime() - last.getTime() >= 23 * 3600_000;
}

/** Each minute: takes the automatic backup when due and keeps the newest `keep`; returns the stop function. */
export function startAutoBackups(db: Db, dir: string, log: (m: string) => void, everyMs = 60_000): () => void {
  const engine: BackupEngine = db.kind;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const s = await autoBackupSettingsRow<AutoBackupSettings>(db);
      const now = new Date();
      // the backup directory is read only in the hour a backup may be due (not every minute of every day)
      const last = s && autoBackupDue(s, now, null) ? listBackups(dir, engine).find((b) => b.kind === 'auto') : undefined;
      if (s && autoBackupDue(s, now, last ? new Date(last.takenAt) : null)) {
        const info = await takeBackup(db, dir, 'auto', null);
        const pruned = pruneAutoBackups(dir, s.keep, engine);
        log(`automatic backup ${info.id} taken (${info.bytes} bytes)${pruned.length ? `; ${pruned.length} older deleted` : ''}`);
      }
    } catch (e) {
      log(`automatic backup: ${(e as Error).message}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
