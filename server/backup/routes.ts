// The backup routes (API.backups, platform privilege 0.7.2.0): list, take now, download, delete, upload one made
// elsewhere, restore one. Every change is audited (client null: a platform record); a restore's audit row is written
// into the restored database, the one that stays. On PostgreSQL the same routes take pg_dump archives and restore
// them with pg_restore in place (no restart: server/backup/postgres.ts), when the server has those tools.
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import {
  API,
  BACKUP_UPLOAD_MAX_BYTES,
  PLATFORM_HISTORY_ENTITIES,
  PLATFORM_HISTORY_SIZE,
  PRIV,
  backupFileName,
  type BackupInfo,
  type BackupList,
  type PlatformHistory,
  type RestoreStarted,
  saidAsMessage,
  saidAsReason,
  restoreSettled,
  sentenceValue,
  type Sentence,
} from '../../contract';
import type { Db } from '../db/db';
import { migrate } from '../db/migrate';
import { forward } from '../streams';
import { auditEntryOf, insertAudit, platformAudit } from '../db/queries/audit';
import { advanceAuthEpoch, auditedBackupIds, authEpoch, endConsoleSessions } from '../db/queries/backup';
import { HttpError, principal, fill, saidOf, INVALID_REQUEST, type Said } from '../http/kit';

/** Why backups cannot be taken here, its key and values beside its English (issue 48). */
const reasonOf = (said: Said | null) => (said === null ? { reason: null } : typeof said === 'string' ? { reason: said } : saidAsReason(said));
import { audit } from '../audit/trail';
import {
  NO_BACKUP_DIR,
  backupFile,
  inspectImage,
  backupOf,
  deleteBackup,
  lastRestore,
  listBackups,
  pgConnection,
  pgToolsOf,
  receiveBackup,
  recordRestore,
  takeBackup,
} from './backups';
import { pgRestore, toolProblem } from './postgres';

export interface BackupOptions {
  /** Where backups are kept; null: none here. */
  dir: string | null;
  /** PostgreSQL: the URL pg_dump and pg_restore connect with (the database name is the pool's); default DATABASE_URL. */
  databaseUrl?: string;
  /**
   * Replaces the database by the image and starts the services again (server/main.ts); `after` runs on the restored
   * database before it serves, `settled` once the services are back with it (`restored`) or, the image not opening,
   * with the database as it was (`problem` says why). Absent: this process cannot restart itself, and a restore of
   * the embedded database is refused (409). (PostgreSQL restores in place: no restart.)
   */
  restart?: (image: string, after: (db: Db) => Promise<void>, settled: (restored: boolean, problem: Sentence | null) => void) => void;
  /** The largest upload taken (default BACKUP_UPLOAD_MAX_BYTES); a larger one is refused with 413 as it streams. */
  maxUploadBytes?: number;
  /** The most an upload may unpack to (default BACKUP_UNPACKED_MAX_BYTES); past it, or past BACKUP_MAX_RATIO times its size: 413. */
  maxUnpackedBytes?: number;
}

/** What an uploaded backup may unpack to: 4 GiB (an embedded database is opened in memory to check it). */
export const BACKUP_UNPACKED_MAX_BYTES = 4 * 1024 * 1024 * 1024;
/** How many times its packed size a backup may unpack to (the demo database's is 8). */
export const BACKUP_MAX_RATIO = 100;

const UPLOAD_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

export function backupRoutes(app: FastifyInstance, { db, backups }: { db: Db; backups: BackupOptions | null }) {
  // a backup is every client's: platform operators only (issue 27; the codes are platform privileges too)
  const config = { privileges: [PRIV.backups], touches: 'platform' as const };
  const engine = db.kind;
  const where = backups?.dir ?? null;
  // why there are none here: a server started without a place for them (tests)
  const dir = () => {
    if (!where) throw new HttpError(409, NO_BACKUP_DIR);
    return where;
  };
  // on PostgreSQL: the tools that take and restore them (409 saying what to install when there are none fit)
  const pgTools = () => pgToolsOf(db);
  let restoring = false;

  app.get(API.backups, { config }, async (): Promise<BackupList> => {
    if (!where) return { available: false, engine, ...reasonOf(NO_BACKUP_DIR), items: [], lastRestore: null };
    // (found once, then remembered: the console asks every 2 s while a restore runs)
    const missing =
      engine === 'postgres'
        ? await pgTools().then(
            () => null,
            (e: Error) => saidOf(e),
          )
        : null;
    return { available: !missing, engine, ...reasonOf(missing), items: listBackups(where, engine), lastRestore: lastRestore(where) };
  });

  // the backups' history (what this screen and the auto-backup settings did: records of no client), on either engine
  app.get(API.platformHistory, { config }, async (): Promise<PlatformHistory> => {
    return { items: (await platformAudit(db, PLATFORM_HISTORY_ENTITIES, PLATFORM_HISTORY_SIZE)).map((r) => auditEntryOf(r)) };
  });

  app.post(API.backups, { config }, async (req, reply) => {
    if (restoring) throw new HttpError(409, fill('backup.restoringRestart', 'A restore is under way: the server restarts in a moment', {}));
    const info = await takeBackup(db, dir(), 'manual', principal(req).username, backups?.databaseUrl);
    await audit(db, req, { clientId: null, action: 'create', entity: 'backup', entityId: info.id, before: null, after: info });
    return reply.code(201).send(info);
  });

  app.get(`${API.backups}/:id/file`, { config }, async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const file = backupFile(dir(), id, engine);
    return reply
      .header('content-type', engine === 'postgres' ? 'application/octet-stream' : 'application/gzip')
      .header('content-disposition', `attachment; filename="${backupFileName(id, engine)}"`)
      .header('cache-control', 'no-store')
      .send(createReadStream(file));
  });

  app.delete(`${API.backups}/:id`, { config }, async (req, reply) => {
    const info = deleteBackup(dir(), (req.params as { id: string }).id, engine);
    await audit(db, req, { clientId: null, action: 'delete', entity: 'backup', entityId: info.id, before: info, after: null });
    return reply.code(204).send();
  });

  app.register(async (scoped) => {
    // the file arrives as the body itself, read as it comes into the backup directory (bounded there, not in memory)
    scoped.addContentTypeParser(UPLOAD_TYPES, (_req, payload, done) => done(null, payload));
    scoped.post(`${API.backups}/upload`, { config }, async (req, reply) => {
      const target = dir();
      // (on PostgreSQL without fit tools: 409 before a byte of the body is read; an archive could not be checked)
      const pg = engine === 'postgres' ? await pgTools() : undefined;
      if (!req.body || typeof (req.body as Readable).pipe !== 'function') {
        throw new HttpError(415, INVALID_REQUEST, [
          {
            field: 'file',
            ...(pg
              ? fill('backup.sendDumpAsBody', 'must be sent as the body (application/octet-stream: a .dump backup)', {})
              : fill('backup.sendTarGzAsBody', 'must be sent as the body (application/gzip: a .tar.gz backup)', {})),
          },
        ]);
      }
      // bounded here as well as in receiveBackup: a declared length past the limit is refused before a byte is read,
      // and a body sent without one is counted as it streams and cut off at the limit (never held: it goes to disk)
      const max = backups?.maxUploadBytes ?? BACKUP_UPLOAD_MAX_BYTES;
      const tooLarge = () =>
        new HttpError(413, INVALID_REQUEST, [
          { field: 'file', ...fill('backup.tooLarge', 'is larger than a backup may be ({mib} MiB)', { mib: Math.round(max / 1024 / 1024) }) },
        ]);
      const declared = Number(req.headers['content-length'] ?? 0);
      // (the connection is closed after the answer: the rest of the body is dropped, never stored)
      if (declared > max) {
        reply.header('connection', 'close');
        (req.body as Readable).resume();
        throw tooLarge();
      }
      // a .tar.gz is inflated as it arrives too (the bytes thrown away, only counted): a gzip bomb is stopped before
      // it is stored, let alone opened into a database in memory to check it (on PostgreSQL too: a gzip is no archive
      // of its, and is refused once whole, but never past these bounds)
      let seen = 0;
      let unpacked = 0;
      // its first two bytes: a gzip's (1f 8b) that then fails to unpack is known bad as it streams (below)
      let head = Buffer.alloc(0);
      let problem: HttpError | null = null;
      const maxUnpacked = backups?.maxUnpackedBytes ?? BACKUP_UNPACKED_MAX_BYTES;
      const gunzip = createGunzip();
      let inflating = true;
      let waiting: (() => void) | null = null;
      const resume = () => {
        const w = waiting;
        waiting = null;
        w?.();
      };
      const counted = new Transform({
        transform(chunk: Buffer, _enc, next) {
          seen += chunk.length;
          if (head.length < 2) head = Buffer.concat([head, chunk.subarray(0, 2 - head.length)]);
          if (seen > max) return next(tooLarge());
          if (problem) return next(problem);
          if (!inflating || gunzip.write(chunk)) return next(null, chunk);
          waiting = () => next(problem, problem ? undefined : chunk); // the upload goes no faster than it is inflated
          gunzip.once('drain', resume);
        },
        flush(done) {
          if (!inflating) return done();
          let called = false;
          const finish = () => {
            if (!called) {
              called = true;
              done(problem);
            }
          };
          gunzip.once('end', finish).once('close', finish);
          gunzip.end();
        },
      });
      gunzip.on('data', (c: Buffer) => {
        unpacked += c.length;
        if (problem || (unpacked <= maxUnpacked && unpacked <= BACKUP_MAX_RATIO * Math.max(seen, 1024 * 1024))) return;
        problem = new HttpError(413, INVALID_REQUEST, [
          {
            field: 'file',
            ...(unpacked > maxUnpacked
              ? fill('backup.unpacksTooLarge', 'unpacks to more than {mib} MiB', { mib: Math.round(maxUnpacked / 1024 / 1024) })
              : fill('backup.gzipBomb', 'unpacks to more than {ratio} times its size: a gzip bomb, not a backup', { ratio: BACKUP_MAX_RATIO })),
          },
        ]);
        inflating = false;
        gunzip.destroy();
        counted.destroy(problem);
        resume();
      });
      // not gzip at all: no longer counted; receiveBackup says what it is not. A gzip that does not unpack (cut short,
      // its deflate data or its trailer damaged) is refused at once on the embedded database, whose backups are .tar.gz:
      // no database inside it could open, so it is not stored, let alone opened in a worker to check it (0.4-1.6 s of
      // processor time each). (On PostgreSQL any gzip is refused once whole, before pg_restore reads it: not its backup.)
      gunzip.on('error', () => {
        inflating = false;
        if (!problem && engine === 'pglite' && head[0] === 0x1f && head[1] === 0x8b) {
          problem = new HttpError(400, INVALID_REQUEST, [
            { field: 'file', ...fill('backup.gzipDamaged', 'is cut short or damaged: it does not unpack as a .tar.gz backup does', {}) },
          ]);
          counted.destroy(problem);
        }
        resume();
      });
      forward(req.body as Readable, counted);
      let info;
      try {
        info = await receiveBackup(target, counted, principal(req).username, pg);
      } catch (e) {
        // what is still in flight is read and dropped until the connection closes (so the answer is not lost to a reset)
        if (seen > max || problem) {
          reply.header('connection', 'close');
          (req.body as Readable).unpipe().resume();
        }
        throw problem ?? e;
      } finally {
        gunzip.destroy();
      }
      await audit(db, req, { clientId: null, action: 'upload', entity: 'backup', entityId: info.id, before: null, after: info });
      return reply.code(201).send(info);
    });
  });

  app.post(`${API.backups}/:id/restore`, { config }, async (req, reply) => {
    const target = dir();
    const info = backupOf(target, (req.params as { id: string }).id, engine);
    if (engine === 'postgres') return restorePostgres(req, reply, target, info);
    if (!backups?.restart)
      throw new HttpError(
        409,
        fill(
          'backup.cannotRestart',
          'This server cannot restart itself to restore a backup: start it with npm start, or restore the data directory by hand',
          {},
        ),
      );
    if (restoring) throw new HttpError(409, fill('backup.restoringRestart', 'A restore is under way: the server restarts in a moment', {}));
    // issue 45: the stored image is opened apart first (a file damaged on disk since is refused here with 400, instead
    // of failing once the services have stopped)
    await inspectImage(backupFile(target, info.id));
    if (restoring) throw new HttpError(409, fill('backup.restoringRestart', 'A restore is under way: the server restarts in a moment', {}));
    restoring = true;
    const actor = principal(req).username;
    let before;
    try {
      before = await takeBackup(db, target, 'before-restore', actor);
      await lineBefore(req, before);
    } catch (e) {
      restoring = false;
      throw e;
    }
    const image = backupFile(target, info.id);
    const restart = backups.restart;
    // how it went is kept beside the backups, for the console that reconnects (and anyone who looks later): pending
    // until the services are back
    const outcome = { backupId: info.id, at: new Date().toISOString(), by: actor };
    recordRestore(target, { ...outcome, restored: null, problem: null });
    // the answer first: the services stop once it is sent. The restored database's console sessions end (everyone
    // signs in again, as the console said before the restore: a session ended after the backup was taken must not
    // come back with it); API keys' sessions stay (integrations and devices go on)
    reply.raw.once('finish', () =>
      restart(
        image,
        (restored) => afterRestore(restored, actor, info, before.id, target),
        (restored, problem) => recordRestore(target, { ...outcome, ...restoreSettled(restored, problem) }),
      ),
    );
    const answer: RestoreStarted = {
      restoring: true,
      backupId: info.id,
      before: before.id,
      ...saidAsMessage(
        fill('backup.restartsWithIt', 'The server restarts with the backup. Every console reconnects in a moment, and everyone signs in again.', {}),
      ),
    };
    return reply.code(202).send(answer);
  });

  /**
   * What a restore runs on the restored database before it serves: every console session ends; the history lines it
   * cannot hold (issue 50: a backup is taken before its own line is written, so the restored backup's line, the
   * automatic one taken before the restore and any taken since were missing from the history), then the restore's.
   */
  async function afterRestore(restored: Db, actor: string, info: BackupInfo, beforeId: string, target: string) {
    await endConsoleSessions(restored, actor);
    const lined = new Set(await auditedBackupIds(restored));
    const missing = listBackups(target, engine)
      .filter((b) => b.kind !== 'auto' && !lined.has(b.id))
      .sort((a, b) => a.takenAt.localeCompare(b.takenAt));
    for (const b of missing)
      await insertAudit(restored, {
        clientId: null,
        actor: b.takenBy ?? actor,
        action: b.kind === 'uploaded' ? 'upload' : 'create',
        entity: 'backup',
        entityId: b.id,
        before: null,
        after: b,
      });
    await insertAudit(restored, { clientId: null, actor, action: 'restore', entity: 'backup', entityId: info.id, before: { backup: beforeId }, after: info });
  }

  /** The automatic backup a restore takes first gets its history line at once (a restore that fails leaves it there). */
  async function lineBefore(req: FastifyRequest, before: BackupInfo) {
    await audit(db, req, { clientId: null, action: 'create', entity: 'backup', entityId: before.id, before: null, after: before });
  }

  /**
   * PostgreSQL: a backup of the database as it is first, then pg_restore replaces the database's contents in one
   * transaction, in place (this server and any other on the same database go on serving: their requests wait on
   * the restore's locks and then read the restored tables). Then it is migrated up to date, every console session
   * ends and the auth epoch moves past any value it had, so every server drops what it cached (sessions, grants) on
   * its next request: the sessions ended here are refused on every server at once.
   */
  async function restorePostgres(req: FastifyRequest, reply: FastifyReply, target: string, info: BackupInfo) {
    const tools = await pgTools();
    const conn = await pgConnection(db, backups?.databaseUrl);
    if (restoring) throw new HttpError(409, fill('backup.restoringSignInAgain', 'A restore is under way: everyone signs in again in a moment', {}));
    restoring = true;
    const actor = principal(req).username;
    let before;
    try {
      before = await takeBackup(db, target, 'before-restore', actor, backups?.databaseUrl);
      await lineBefore(req, before);
    } catch (e) {
      restoring = false;
      throw e;
    }
    const image = backupFile(target, info.id, engine);
    const outcome = { backupId: info.id, at: new Date().toISOString(), by: actor };
    const settle = (restored: boolean, problem: Sentence | null) => {
      recordRestore(target, { ...outcome, ...restoreSettled(restored, problem) });
      restoring = false;
    };
    recordRestore(target, { ...outcome, restored: null, problem: null });
    reply.raw.once(
      'finish',
      () =>
        void (async () => {
          const epoch = await authEpoch(db);
          try {
            await pgRestore(tools, conn, image);
          } catch (e) {
            req.log.error(e, 'restore');
            return settle(
              false,
              fill('backup.notRestored', 'The backup did not restore ({problem}): the database is as it was.', sentenceValue('problem', toolProblem(e))),
            );
          }
          try {
            await migrate(db);
            await afterRestore(db, actor, info, before.id, target);
            await advanceAuthEpoch(db, epoch);
            settle(true, null);
          } catch (e) {
            req.log.error(e, 'restore');
            settle(
              false,
              fill(
                'backup.restoredNotMigrated',
                'The backup was restored, but bringing it up to date failed ({problem}): start the server again, it migrates the database when it starts.',
                { problem: (e as Error).message },
              ),
            );
          }
        })().catch((e) => {
          req.log.error(e, 'restore');
          settle(false, fill('backup.restoreFailed', 'The restore failed: {problem}', sentenceValue('problem', toolProblem(e))));
        }),
    );
    const answer: RestoreStarted = {
      restoring: true,
      backupId: info.id,
      before: before.id,
      ...saidAsMessage(
        fill('backup.replacedByIt', 'The database is replaced by the backup in a moment. Every console session ends with it: everyone signs in again.', {}),
      ),
    };
    return reply.code(202).send(answer);
  }
}
