// Backup and restore [0.7.2.0] and auto-backup [0.7.2.1]: platform privileges. A backup is taken, listed, downloaded
// and deleted; an upload is checked before it is kept; a restore backs the database up first and hands the image to
// the process's restart; the image opens as the database it was; a data directory replaced by an image that does not
// open is put back. On PostgreSQL a backup is the database's pg_dump archive, restored in place with pg_restore; an
// embedded image is refused there and an archive on the embedded database; without fit tools the routes say what to install.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, autoBackupResource, backupTakenAt, fill, type Sentence } from '../../contract';
import { openPglite } from '../db/db';
import { startTestServer, type TestServer } from '../testkit';
import { autoBackupDue, inspectImage, latestSchema, listBackups, pruneAutoBackups, recoverInterruptedRestore, replaceDataDir, takeBackup } from './backups';
import { findPgTools, serverMajor } from './postgres';

let s: TestServer;
let admin: string, harbour: string, operator: string;
const dir = mkdtempSync(join(tmpdir(), 'gh-backups-'));
const restarts: { image: string; after: (db: any) => Promise<void>; settled: (restored: boolean, problem: Sentence | null) => void }[] = [];
// the embedded database's backups are tested on PGlite, what PostgreSQL says instead on PostgreSQL: each set is
// registered on its engine only (nothing is reported skipped)
const pglite = !process.env.DATABASE_URL;

beforeAll(async () => {
  s = await startTestServer({
    backups: {
      dir,
      restart: (image, after, settled) => {
        restarts.push({ image, after, settled });
      },
    },
  });
  [admin, harbour, operator] = await Promise.all([s.loginTo('admin', 'NORTHWIND'), s.login('harbour'), s.login('operator')]);
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const upload = (token: string, body: Buffer, type = 'application/gzip') =>
  fetch(`${s.base}${API.backups}/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: new Uint8Array(body) });

if (pglite)
  describe('backups of the embedded database', () => {
    it('are the platform operator\u2019s: a client\u2019s administrator and an operator are refused, in any client', async () => {
      expect((await s.call('GET', API.backups, { token: admin })).status).toBe(200);
      for (const t of [harbour, operator]) {
        expect((await s.call('GET', API.backups, { token: t })).status).toBe(403);
        expect((await s.call('POST', API.backups, { token: t })).status).toBe(403);
        expect((await s.call('GET', autoBackupResource.api, { token: t })).status).toBe(403);
      }
    });

    it('a backup taken now is listed, downloads as the image it lists, opens as this database, and is deleted with an audit row each', async () => {
      const taken = await s.call('POST', API.backups, { token: admin });
      expect(taken.status).toBe(201);
      expect(taken.body).toMatchObject({ kind: 'manual', takenBy: 'admin', schemaVersion: latestSchema(), engine: 'pglite' });
      expect(statSync(join(dir, `${taken.body.id}.tar.gz`)).mode & 0o777).toBe(0o600); // it holds every secret
      const list = (await s.call('GET', API.backups, { token: admin })).body;
      expect(list).toMatchObject({ available: true, engine: 'pglite' });
      expect(list.items[0]).toEqual(taken.body);
      const file = await fetch(`${s.base}${API.backups}/${taken.body.id}/file`, { headers: { authorization: `Bearer ${admin}` } });
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="gatehouse-backup-${taken.body.id}.tar.gz"`);
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.length).toBe(taken.body.bytes);
      writeFileSync(join(dir, 'downloaded.tar.gz'), bytes);
      expect(await inspectImage(join(dir, 'downloaded.tar.gz'))).toEqual({ schemaVersion: latestSchema(), clients: await s.count('select id from clients') });
      const audit = await s.db.query<any>(`select action, client_id from audit_log where entity = 'backup' and entity_id = $1`, [taken.body.id]);
      expect(audit.rows).toEqual([{ action: 'create', client_id: null }]);
      expect((await s.call('DELETE', `${API.backups}/${taken.body.id}`, { token: admin })).status).toBe(204);
      expect((await s.call('GET', API.backups, { token: admin })).body.items.map((b: any) => b.id)).not.toContain(taken.body.id);
      expect((await s.call('GET', `${API.backups}/${taken.body.id}/file`, { token: admin })).status).toBe(404);
    }, 120_000);

    it('an id that is not a backup\u2019s is 404, never a path', async () => {
      for (const id of ['..%2F..%2Fetc%2Fpasswd', '20260101T000000Z-abcdef', 'x'.repeat(90), '%00']) {
        expect((await s.call('GET', `${API.backups}/${id}/file`, { token: admin })).status).toBe(404);
        expect((await s.call('DELETE', `${API.backups}/${id}`, { token: admin })).status).toBe(404);
        expect((await s.call('POST', `${API.backups}/${id}/restore`, { token: admin })).status).toBe(404);
      }
      expect(restarts).toEqual([]);
    });

    it('an upload is kept only when it is a backup this server can restore, and says which is wrong with the file', async () => {
      const before = listBackups(dir).length;
      const named = async (r: Response) => ({ status: r.status, fields: ((await r.json()).violations ?? []).map((v: any) => v.field) });
      expect(await named(await upload(admin, Buffer.from('not a backup at all')))).toEqual({ status: 400, fields: ['file'] });
      expect(await named(await upload(admin, gzipSync(Buffer.from('a gzip of something else'))))).toEqual({ status: 400, fields: ['file'] });
      expect(await named(await upload(admin, Buffer.alloc(0)))).toEqual({ status: 400, fields: ['file'] });
      // a PostgreSQL backup (a pg_dump archive) is not this server's: said so
      const archive = await upload(admin, Buffer.concat([Buffer.from('PGDMP'), Buffer.alloc(64, 1)]), 'application/octet-stream');
      expect(archive.status).toBe(400);
      expect((await archive.json()).violations).toEqual([
        { field: 'file', message: expect.stringContaining('is a backup of PostgreSQL'), code: 'backup.pgNotPglite', values: {} },
      ]);
      expect((await upload(harbour, Buffer.from('x'))).status).toBe(403);
      expect(listBackups(dir).length).toBe(before);
      // one this server made comes back as an uploaded backup
      const made = (await s.call('POST', API.backups, { token: admin })).body;
      const image = readFileSync(join(dir, `${made.id}.tar.gz`));
      const up = await upload(admin, image);
      expect(up.status).toBe(201);
      expect(await up.json()).toMatchObject({ kind: 'uploaded', takenBy: 'admin', bytes: image.length, schemaVersion: latestSchema() });
    }, 120_000);

    it('a restore takes a backup of the database as it is, answers, and hands the image to the restart; the audit row goes into the restored database', async () => {
      // an integration's key has been used (its session is the key's own)
      await s.db.query(`insert into sessions (jti, user_id) select 'apikey:backup-test', id from users where username = 'admin'`);
      const chosen = (await s.call('POST', API.backups, { token: admin })).body;
      const r = await s.call('POST', `${API.backups}/${chosen.id}/restore`, { token: admin });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ restoring: true, backupId: chosen.id });
      const before = listBackups(dir).find((b) => b.id === r.body.before);
      expect(before).toMatchObject({ kind: 'before-restore', takenBy: 'admin' });
      // its history line is there at once (a restore that fails leaves the database, and the line, as they were)
      expect(
        (await s.db.query<any>(`select actor from audit_log where entity = 'backup' and action = 'create' and entity_id = $1`, [r.body.before])).rows,
      ).toEqual([{ actor: 'admin' }]);
      // its id says when it was taken (the console shows it before the list does)
      expect(backupTakenAt(before!.id)).toBe(before!.takenAt.replace(/\.\d+Z$/, 'Z'));
      await expect.poll(() => restarts.length).toBe(1);
      expect(restarts[0].image).toBe(join(dir, `${chosen.id}.tar.gz`));
      // a second one while the first is under way is refused
      expect((await s.call('POST', `${API.backups}/${chosen.id}/restore`, { token: admin })).status).toBe(409);
      // what the restart runs on the restored database: the restore's own audit row
      const restored = await openPglite('memory://', new Blob([readFileSync(restarts[0].image)]));
      try {
        const open = async () =>
          (
            await restored.query<{ apikey: boolean; n: number }>(
              `select jti like 'apikey:%' as apikey, count(*)::int as n from sessions where ended_at is null group by 1 order by 1`,
            )
          ).rows;
        const keys = (await open()).find((x) => x.apikey)?.n ?? 0;
        expect((await open()).find((x) => !x.apikey)?.n).toBeGreaterThan(0); // the sign-ins of these tests were in the backup
        await restarts[0].after(restored);
        const audit = await restored.query<any>(`select actor, action, entity_id, before from audit_log where entity = 'backup' and action = 'restore'`);
        expect(audit.rows).toEqual([{ actor: 'admin', action: 'restore', entity_id: chosen.id, before: { backup: r.body.before } }]);
        // issue 50: the restored backup (taken by hand before its own line was written) and the automatic one taken
        // before the restore each have a history line, before the restore's
        const lines = await restored.query<any>(`select action, entity_id, actor from audit_log where entity = 'backup' and client_id is null order by id`);
        const at = (id: string, action: string) => lines.rows.findIndex((x: any) => x.entity_id === id && x.action === action);
        expect(at(chosen.id, 'create')).toBeGreaterThanOrEqual(0);
        expect(at(r.body.before, 'create')).toBeGreaterThan(at(chosen.id, 'create'));
        expect(at(chosen.id, 'restore')).toBeGreaterThan(at(r.body.before, 'create'));
        expect(lines.rows.filter((x: any) => x.action === 'create' && x.entity_id === r.body.before)).toEqual([
          { action: 'create', entity_id: r.body.before, actor: 'admin' },
        ]);
        // every console session of the restored database ended (everyone signs in again); API keys go on
        expect(keys).toBeGreaterThan(0);
        expect(await open()).toEqual([{ apikey: true, n: keys }]);
      } finally {
        await restored.close();
      }
      // the list says how it went: under way until the restart settles, then restored, or the database as it was
      const outcome = async () => (await s.call('GET', API.backups, { token: admin })).body.lastRestore;
      expect(await outcome()).toMatchObject({ backupId: chosen.id, by: 'admin', restored: null, problem: null });
      restarts[0].settled(false, fill('backup.didNotOpen', 'The backup did not open ({problem}): the database is as it was.', { problem: 'bad tar' }));
      expect(await outcome()).toMatchObject({
        backupId: chosen.id,
        restored: false,
        problem: 'The backup did not open (bad tar): the database is as it was.',
        problemCode: 'backup.didNotOpen',
        problemValues: { problem: 'bad tar' },
      });
      restarts[0].settled(true, null);
      expect(await outcome()).toMatchObject({ backupId: chosen.id, restored: true, problem: null });
    }, 120_000);

    it('auto-backup settings: one row for the installation, changed by the platform operator with an audit row; bad values named', async () => {
      const read = await s.call('GET', autoBackupResource.api, { token: admin });
      expect(read.body).toMatchObject({ id: 1, enabled: false, frequency: 'daily', hour: 2, keep: 7 });
      const other = await s.loginTo('admin', 'HARBOUR');
      expect((await s.call('GET', autoBackupResource.api, { token: other })).body.id).toBe(1);
      const saved = await s.call('PUT', autoBackupResource.api, { token: admin, body: { enabled: true, frequency: 'weekly', weekday: '3', hour: 4, keep: 2 } });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ enabled: true, frequency: 'weekly', weekday: '3', hour: 4, keep: 2 });
      expect((await s.call('GET', autoBackupResource.api, { token: other })).body.hour).toBe(4);
      const audit = await s.db.query<any>(`select action from audit_log where entity = $1 and entity_id = '1'`, ['auto-backup settings']);
      expect(audit.rows.map((x) => x.action)).toContain('update');
      const bad = await s.call('PUT', autoBackupResource.api, { token: admin, body: { enabled: true, frequency: 'hourly', weekday: '9', hour: 24, keep: 0 } });
      expect(bad.status).toBe(400);
      expect(bad.body.violations.map((v: any) => v.field).sort()).toEqual(['frequency', 'hour', 'keep', 'weekday']);
    });
  });

if (!pglite)
  describe('backups of a PostgreSQL database (pg_dump and pg_restore)', () => {
    const named = async (r: Response) => ({ status: r.status, violations: (await r.json()).violations });
    let restoredAudit: string[] = [];

    it('a backup taken now is a pg_dump archive of the whole database: listed, downloaded as it is, deleted, each audited', async () => {
      const list = (await s.call('GET', API.backups, { token: admin })).body;
      expect(list).toMatchObject({ available: true, engine: 'postgres', reason: null });
      const taken = await s.call('POST', API.backups, { token: admin });
      expect(taken.status).toBe(201);
      expect(taken.body).toMatchObject({ kind: 'manual', takenBy: 'admin', schemaVersion: latestSchema(), engine: 'postgres' });
      const path = join(dir, `${taken.body.id}.dump`);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readFileSync(path).subarray(0, 5).toString()).toBe('PGDMP');
      expect((await s.call('GET', API.backups, { token: admin })).body.items[0]).toEqual(taken.body);
      const file = await fetch(`${s.base}${API.backups}/${taken.body.id}/file`, { headers: { authorization: `Bearer ${admin}` } });
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="gatehouse-backup-${taken.body.id}.dump"`);
      expect(Buffer.from(await file.arrayBuffer()).equals(readFileSync(path))).toBe(true);
      expect((await s.call('DELETE', `${API.backups}/${taken.body.id}`, { token: admin })).status).toBe(204);
      const audit = await s.db.query<any>(`select action from audit_log where entity = 'backup' and entity_id = $1 order by id`, [taken.body.id]);
      expect(audit.rows.map((r) => r.action)).toEqual(['create', 'delete']);
      for (const t of [harbour, operator]) expect((await s.call('POST', API.backups, { token: t })).status).toBe(403);
    });

    it('an upload is kept only when it is a pg_dump archive of a Gatehouse database; an embedded image is refused, named', async () => {
      const before = listBackups(dir, 'postgres').length;
      // a gzip, as the embedded database's images are
      expect(await named(await upload(admin, gzipSync(Buffer.from('an image of the embedded database'))))).toEqual({
        status: 400,
        violations: [{ field: 'file', message: expect.stringContaining('as backups of the embedded database are'), code: 'backup.pgliteNotPg', values: {} }],
      });
      expect(await named(await upload(admin, Buffer.from('not a backup at all'), 'application/octet-stream'))).toEqual({
        status: 400,
        violations: [{ field: 'file', message: expect.stringContaining('is not a Gatehouse backup'), code: 'backup.notPgDump', values: {} }],
      });
      expect(await named(await upload(admin, Buffer.concat([Buffer.from('PGDMP'), Buffer.alloc(200, 7)]), 'application/octet-stream'))).toEqual({
        status: 400,
        violations: [{ field: 'file', message: expect.stringContaining('pg_restore does not read it'), code: 'backup.notGatehouseDump', values: {} }],
      });
      expect((await named(await upload(admin, Buffer.alloc(0), 'application/octet-stream'))).status).toBe(400);
      expect(listBackups(dir, 'postgres').length).toBe(before);
      // one this server made comes back as an uploaded backup
      const made = (await s.call('POST', API.backups, { token: admin })).body;
      const archive = readFileSync(join(dir, `${made.id}.dump`));
      const up = await upload(admin, archive, 'application/octet-stream');
      expect(up.status).toBe(201);
      expect(await up.json()).toMatchObject({ kind: 'uploaded', takenBy: 'admin', bytes: archive.length, schemaVersion: latestSchema(), engine: 'postgres' });
    });

    it('a restore backs the database up first, replaces it by the backup in place, ends every console session (keys stay) and says how it went', async () => {
      await s.db.query(`insert into sessions (jti, user_id) select 'apikey:backup-test', id from users where username = 'admin'`);
      const chosen = (await s.call('POST', API.backups, { token: admin })).body;
      // changed after the backup: gone after the restore
      const zone = `After the backup ${Date.now()}`;
      expect(
        (await s.call('POST', '/event/manage/access-zones', { token: harbour, body: { name: zone, antiPassback: 'off', forgiveMinutes: 0 } })).status,
      ).toBe(201);
      const epoch = Number((await s.db.query<{ e: string }>('select epoch::text as e from auth_epoch')).rows[0].e);
      const r = await s.call('POST', `${API.backups}/${chosen.id}/restore`, { token: admin });
      expect(r.status).toBe(202);
      expect(r.body).toMatchObject({ restoring: true, backupId: chosen.id });
      expect(listBackups(dir, 'postgres').find((b) => b.id === r.body.before)).toMatchObject({ kind: 'before-restore', takenBy: 'admin' });
      await expect
        .poll(async () => (await s.call('GET', API.backups, { token: await s.loginTo('admin', 'NORTHWIND') })).body.lastRestore?.restored, { timeout: 60_000 })
        .toBe(true);
      expect(await s.count(`select id from access_zones where name = '${zone}'`)).toBe(0);
      // every console session of before ended (this one too); the key's session goes on
      expect((await s.call('GET', API.backups, { token: admin })).status).toBe(401);
      expect((await s.call('GET', API.backups, { token: harbour })).status).toBe(401);
      expect((await s.db.query(`select 1 from sessions where jti = 'apikey:backup-test' and ended_at is null`)).rows).toHaveLength(1);
      // the auth epoch moved past any value it had: every server drops what it cached
      expect(Number((await s.db.query<{ e: string }>('select epoch::text as e from auth_epoch')).rows[0].e)).toBeGreaterThan(epoch);
      const audit = await s.db.query<any>(`select actor, action, entity_id, before from audit_log where entity = 'backup' and action = 'restore'`);
      expect(audit.rows).toEqual([{ actor: 'admin', action: 'restore', entity_id: chosen.id, before: { backup: r.body.before } }]);
      // issue 50: the restored backup and the one taken before the restore each have a history line
      for (const id of [chosen.id, r.body.before])
        expect(await s.count(`select 1 from audit_log where entity = 'backup' and action = 'create' and entity_id = $1`, [id])).toBe(1);
      admin = await s.loginTo('admin', 'NORTHWIND');
      harbour = await s.login('harbour');
      operator = await s.login('operator');
      expect((await s.call('GET', API.backups, { token: admin })).body.lastRestore).toMatchObject({
        backupId: chosen.id,
        by: 'admin',
        restored: true,
        problem: null,
      });
      restoredAudit = (await s.db.query<{ action: string }>(`select distinct action from audit_log where entity = 'backup'`)).rows.map((x) => x.action);
      expect(restoredAudit).toContain('restore');
    }, 120_000);

    it('an archive that does not restore leaves the database as it was, and says why', async () => {
      // a real archive of another database: pg_restore reads it, but it is no Gatehouse database (refused at upload),
      // so a stored one is made by hand: a backup whose file is cut short
      const made = (await s.call('POST', API.backups, { token: admin })).body;
      const path = join(dir, `${made.id}.dump`);
      writeFileSync(path, readFileSync(path).subarray(0, 2000));
      const r = await s.call('POST', `${API.backups}/${made.id}/restore`, { token: admin });
      expect(r.status).toBe(202);
      await expect.poll(async () => (await s.call('GET', API.backups, { token: admin })).body.lastRestore?.restored, { timeout: 60_000 }).toBe(false);
      const outcome = (await s.call('GET', API.backups, { token: admin })).body.lastRestore;
      expect(outcome.problem).toMatch(/did not restore \(pg_restore failed \(exit \d+\): .+\): the database is as it was/);
      // said by its key, pg_restore's own words a value inside (issue 48)
      expect(outcome).toMatchObject({
        problemCode: 'backup.notRestored',
        problemValues: { 'problem:code': 'backup.toolFailed', 'problem.tool': 'pg_restore' },
      });
      // nothing ended: the console session that asked goes on
      expect((await s.call('GET', API.backups, { token: admin })).status).toBe(200);
    }, 120_000);

    it('without pg_dump, or with an older one than the server, says exactly that and what to install', async () => {
      const major = await serverMajor(s.db);
      const root = mkdtempSync(join(tmpdir(), 'gh-pgtools-'));
      try {
        const none = await findPgTools(s.db, [root]);
        expect(none.problem?.message).toContain(`PostgreSQL ${major}`);
        expect(none.problem?.message).toContain('were not found');
        expect(none.problem?.message).toContain(`postgresql-client-${major}`);
        // an installation of an older major version's client tools
        const old = join(root, 'old');
        mkdirSync(old);
        for (const t of ['pg_dump', 'pg_restore', 'psql']) {
          writeFileSync(join(old, t), `#!/bin/sh\necho "${t} (PostgreSQL) ${major - 1}.3"\n`);
          chmodSync(join(old, t), 0o755);
        }
        const older = await findPgTools(s.db, [old]);
        expect(older.problem?.message).toContain(`PostgreSQL ${major - 1}.3`);
        expect(older.problem?.message).toContain('older');
        expect(older.problem?.message).toContain(`postgresql-client-${major}`);
        // the tools of this machine are found
        expect((await findPgTools(s.db)).tools?.major).toBeGreaterThanOrEqual(major);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });

describe('the backups\u2019 history', () => {
  it('list what was done to the backups and their settings, newest first, nothing of any client nor a user\u2019s own settings; only for the platform operator', async () => {
    // records of no client about something else: a platform user's own settings, an account locked
    await s.db.query(
      `insert into audit_log (client_id, actor, action, entity, entity_id) values (null, 'admin', 'update', 'settings', '1'), (null, 'operator', 'lock', 'user', '2')`,
    );
    const saved = await s.call('PUT', autoBackupResource.api, { token: admin, body: { enabled: false, frequency: 'daily', weekday: '0', hour: 3, keep: 4 } });
    expect(saved.status).toBe(200);
    // a client's change is the client's record, not the installation's
    expect(
      (
        await s.call('POST', '/event/manage/access-zones', {
          token: harbour,
          body: { name: `History zone ${Date.now()}`, antiPassback: 'off', forgiveMinutes: 0 },
        })
      ).status,
    ).toBe(201);
    const history = await s.call('GET', API.platformHistory, { token: admin });
    expect(history.status).toBe(200);
    const items = history.body.items as { id: number; clientId: number | null; actor: string; action: string; entity: string }[];
    expect(items.every((r) => r.clientId === null)).toBe(true);
    expect(items.map((r) => r.entity)).not.toContain('access zone');
    expect(new Set(items.map((r) => r.entity))).toEqual(new Set(['backup', 'auto-backup settings']));
    expect(items.map((r) => r.id)).toEqual([...items.map((r) => r.id)].sort((a, b) => b - a));
    expect(items[0]).toMatchObject({ actor: 'admin', action: 'update', entity: 'auto-backup settings' });
    // the backups the tests above took, uploaded and deleted (on PostgreSQL the restore replaced the records since its
    // backup was taken, and wrote its own)
    expect(new Set(items.filter((r) => r.entity === 'backup').map((r) => r.action))).toEqual(
      new Set(pglite ? ['create', 'upload', 'delete'] : ['create', 'upload', 'delete', 'restore']),
    );
    for (const t of [harbour, operator]) expect((await s.call('GET', API.platformHistory, { token: t })).status).toBe(403);
  });
});

describe('when an automatic backup is due (UTC)', () => {
  const at = (iso: string) => new Date(iso);
  const s0 = { enabled: true, frequency: 'daily', weekday: '0', hour: 2, keep: 3 };
  it('at its hour, once a day, on its weekday when weekly, never when off', () => {
    expect(autoBackupDue(s0, at('2026-11-27T02:00:30Z'), null)).toBe(true);
    expect(autoBackupDue(s0, at('2026-11-27T03:00:00Z'), null)).toBe(false);
    expect(autoBackupDue(s0, at('2026-11-27T02:30:00Z'), at('2026-11-27T02:00:30Z'))).toBe(false);
    expect(autoBackupDue(s0, at('2026-11-28T02:00:00Z'), at('2026-11-27T02:00:30Z'))).toBe(true);
    expect(autoBackupDue({ ...s0, enabled: false }, at('2026-11-27T02:00:00Z'), null)).toBe(false);
    expect(autoBackupDue({ ...s0, frequency: 'weekly', weekday: '5' }, at('2026-11-27T02:00:00Z'), null)).toBe(true); // a Friday
    expect(autoBackupDue({ ...s0, frequency: 'weekly', weekday: '1' }, at('2026-11-27T02:00:00Z'), null)).toBe(false);
  });
});

if (pglite)
  describe('a data directory replaced by a backup', () => {
    it('opens as the backed-up database; an image that does not open leaves the directory as it was; an interrupted swap is put back', async () => {
      const root = mkdtempSync(join(tmpdir(), 'gh-restore-'));
      try {
        const data = join(root, 'data');
        const db = await openPglite(data);
        await db.exec(`create table schema_migrations (id int primary key, name text, at timestamptz default now()); insert into schema_migrations (id, name) values (1, 'one');
        create table clients (id int); create table kept (x text); insert into kept values ('at the backup')`);
        const store = join(root, 'backups');
        const info = await takeBackup(db, store, 'manual', 'test');
        await db.exec(`update kept set x = 'changed since'`);
        await db.close();
        const swapped = await replaceDataDir(data, join(store, `${info.id}.tar.gz`));
        expect(swapped.restored).toBe(true);
        expect((await swapped.db.query('select x from kept')).rows).toEqual([{ x: 'at the backup' }]);
        await swapped.db.exec(`update kept set x = 'after the restore'`);
        await swapped.db.close();
        // not an image: the directory comes back as it was
        const junk = join(root, 'junk.tar.gz');
        writeFileSync(junk, gzipSync(Buffer.from('junk')));
        const failed = await replaceDataDir(data, junk);
        expect(failed.restored).toBe(false);
        expect((await failed.db.query('select x from kept')).rows).toEqual([{ x: 'after the restore' }]);
        await failed.db.close();
        // a swap cut off after the directory was put aside: start-up puts it back
        const { renameSync } = await import('node:fs');
        renameSync(data, `${data}.replaced`);
        expect(recoverInterruptedRestore(data)).toBe(true);
        const back = await openPglite(data);
        expect((await back.query('select x from kept')).rows).toEqual([{ x: 'after the restore' }]);
        await back.close();
        // automatic backups beyond the kept number are deleted, the others stay
        const auto = join(root, 'auto');
        const again = await openPglite(data);
        // a backup's id starts with its second (newBackupId) and pruning keeps the newest ids, so each automatic backup
        // is taken in a second of its own: the clock the code reads (Date alone, timers run as they do) moved on a
        // second between them, where the test slept 1.1 s of real time for each
        const from = Date.now();
        vi.useFakeTimers({ toFake: ['Date'], now: from });
        try {
          for (let i = 0; i < 3; i++) {
            vi.setSystemTime(from + i * 1000);
            await takeBackup(again, auto, 'auto', null);
          }
          vi.setSystemTime(from + 3000);
          await takeBackup(again, auto, 'manual', 'test');
        } finally {
          vi.useRealTimers();
        }
        await again.close();
        const autos = listBackups(auto)
          .filter((b) => b.kind === 'auto')
          .map((b) => b.id);
        expect(pruneAutoBackups(auto, 2)).toEqual([autos[2]]);
        expect(
          listBackups(auto)
            .map((b) => b.kind)
            .sort(),
        ).toEqual(['auto', 'auto', 'manual']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }, 120_000);
  });
