// The backup routes (API.backups, platform privilege 0.7.2.0): list, take now, download, delete, upload one made
// elsewhere, restore one. Every change is audited (client null: a platform record); a restore's audit row is written
// into the restored database, the one that stays.
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { API, PLATFORM_HISTORY_ENTITIES, PLATFORM_HISTORY_SIZE, PRIV, backupFileName, type BackupList, type PlatformHistory, type RestoreStarted } from '../../contract';
import type { Db } from '../db/db';
import { auditEntryOf, insertAudit, platformAudit } from '../db/queries/audit';
import { HttpError, audit, principal } from '../http/common';
import { NO_BACKUP_DIR, POSTGRES_BACKUPS, backupFile, backupOf, deleteBackup, lastRestore, listBackups, receiveBackup, recordRestore, takeBackup } from './backups';

export interface BackupOptions {
  /** Where backups are kept; null: none here (PostgreSQL). */
  dir: string | null;
  /**
   * Replaces the database by the image and starts the services again (server/main.ts); `after` runs on the restored
   * database before it serves, `settled` once the services are back with it (`restored`) or, the image not opening,
   * with the database as it was (`problem` says why). Absent: this process cannot restart itself, and a restore is
   * refused (409).
   */
  restart?: (image: string, after: (db: Db) => Promise<void>, settled: (restored: boolean, problem: string | null) => void) => void;
}

const UPLOAD_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

export function backupRoutes(app: FastifyInstance, { db, backups }: { db: Db; backups: BackupOptions | null }) {
  // a backup is every client's: platform operators only (issue 27; the codes are platform privileges too)
  const config = { privileges: [PRIV.backups], touches: 'platform' as const };
  const where = backups?.dir && db.kind === 'pglite' ? backups.dir : null;
  // why there are none here: PostgreSQL keeps its own; an embedded server started without a place for them (tests)
  const reason = db.kind === 'postgres' ? POSTGRES_BACKUPS : NO_BACKUP_DIR;
  const dir = () => { if (!where) throw new HttpError(409, reason); return where; };
  let restoring = false;

  app.get(API.backups, { config }, async (): Promise<BackupList> =>
    where ? { available: true, reason: null, items: listBackups(where), lastRestore: lastRestore(where) } : { available: false, reason, items: [], lastRestore: null });

  // the backups' history (what this screen and the auto-backup settings did: records of no client), on either engine
  app.get(API.platformHistory, { config }, async (): Promise<PlatformHistory> => {
    return { items: (await platformAudit(db, PLATFORM_HISTORY_ENTITIES, PLATFORM_HISTORY_SIZE)).map(auditEntryOf) };
  });

  app.post(API.backups, { config }, async (req, reply) => {
    if (restoring) throw new HttpError(409, 'A restore is under way: the server restarts in a moment');
    const info = await takeBackup(db, dir(), 'manual', principal(req).username);
    await audit(db, req, { clientId: null, action: 'create', entity: 'backup', entityId: info.id, before: null, after: info });
    return reply.code(201).send(info);
  });

  app.get(`${API.backups}/:id/file`, { config }, async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const file = backupFile(dir(), id);
    return reply.header('content-type', 'application/gzip').header('content-disposition', `attachment; filename="${backupFileName(id)}"`)
      .header('cache-control', 'no-store').send(createReadStream(file));
  });

  app.delete(`${API.backups}/:id`, { config }, async (req, reply) => {
    const info = deleteBackup(dir(), (req.params as { id: string }).id);
    await audit(db, req, { clientId: null, action: 'delete', entity: 'backup', entityId: info.id, before: info, after: null });
    return reply.code(204).send();
  });

  app.register(async (scoped) => {
    // the file arrives as the body itself, read as it comes into the backup directory (bounded there, not in memory)
    scoped.addContentTypeParser(UPLOAD_TYPES, (_req, payload, done) => done(null, payload));
    scoped.post(`${API.backups}/upload`, { config }, async (req, reply) => {
      const target = dir();
      if (!req.body || typeof (req.body as Readable).pipe !== 'function') {
        throw new HttpError(415, 'Validation failed', [{ field: 'file', message: 'must be sent as the body (application/gzip: a .tar.gz backup)' }]);
      }
      const info = await receiveBackup(target, req.body as Readable, principal(req).username);
      await audit(db, req, { clientId: null, action: 'upload', entity: 'backup', entityId: info.id, before: null, after: info });
      return reply.code(201).send(info);
    });
  });

  app.post(`${API.backups}/:id/restore`, { config }, async (req, reply) => {
    const target = dir();
    const info = backupOf(target, (req.params as { id: string }).id);
    if (!backups?.restart) throw new HttpError(409, 'This server cannot restart itself to restore a backup: start it with npm start, or restore the data directory by hand');
    if (restoring) throw new HttpError(409, 'A restore is under way: the server restarts in a moment');
    restoring = true;
    const actor = principal(req).username;
    let before;
    try { before = await takeBackup(db, target, 'before-restore', actor); } catch (e) { restoring = false; throw e; }
    const image = backupFile(target, info.id);
    const restart = backups.restart;
    // how it went is kept beside the backups, for the console that reconnects (and anyone who looks later): pending
    // until the services are back
    const outcome = { backupId: info.id, at: new Date().toISOString(), by: actor };
    recordRestore(target, { ...outcome, restored: null, problem: null });
    // the answer first: the services stop once it is sent. The restored database's console sessions end (everyone
    // signs in again, as the console said before the restore: a session ended after the backup was taken must not
    // come back with it); API keys' sessions stay (integrations and devices go on)
    reply.raw.once('finish', () => restart(image, async (restored) => {
      await restored.query(`update sessions set ended_at = now(), ended_by = $1 where ended_at is null and jti not like 'apikey:%'`, [actor]);
      await insertAudit(restored, { clientId: null, actor, action: 'restore', entity: 'backup', entityId: info.id, before: { backup: before.id }, after: info });
    }, (restored, problem) => recordRestore(target, { ...outcome, restored, problem })));
    const answer: RestoreStarted = {
      restoring: true, backupId: info.id, before: before.id,
      message: 'The server restarts with the backup. Every console reconnects in a moment, and everyone signs in again.',
    };
    return reply.code(202).send(answer);
  });
}
