// Issue 27: a full disk is an answer, not a hang. The embedded database runs on a real, small file system (a tmpfs
// mounted for this file) that the test fills: writes answer 503 with a plain message, reads go on, /api/health says
// why, the log says it once, and when the space comes back everything works again without a restart.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { DATA_DIR_READ_ONLY, DISK_FULL } from './db';
import { STATFS_EVERY_MS } from './diskGuard';

const pglite = !process.env.DATABASE_URL;
const registration = (username: string) => ({ username, name: 'New Bie', email: `${username}@example.com` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The tmpfs describes PGlite's own data directory: on PostgreSQL (DATABASE_URL, CI's second run) the disk belongs to
// the database server, which this process neither holds nor can fill; its disk-full error (53100) is covered on both
// engines by server/http/faults.test.ts, and the bounded health check below runs on both.
if (pglite)
  describe('the embedded database on a disk that fills up', () => {
    let s: TestServer;
    const logged: string[] = [];
    const mnt = mkdtempSync(join(tmpdir(), 'gh-diskfull-'));
    const fill = join(mnt, 'fill');
    let mounted = false;
    let operator: string;
    let admin: string;

    beforeAll(async () => {
      // CI runs as root on Linux: a test that cannot make its small disk fails here instead of passing without one
      if (process.getuid?.() !== 0) throw new Error('diskFull.test.ts mounts a tmpfs and must run as root (CI does)');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256m', 'tmpfs', mnt]);
      mounted = true;
      mkdirSync(join(mnt, 'data'));
      s = await startTestServer({
        dataDir: join(mnt, 'data'),
        backups: { dir: join(mnt, 'backups'), restart: () => {} },
        healthTimeoutMs: 2000,
        logger: {
          stream: {
            write: (line: string) => {
              logged.push(line);
            },
          },
        },
      });
      [operator, admin] = await Promise.all([s.login('operator'), s.loginTo('admin', 'NORTHWIND')]);
    }, 120_000);
    afterAll(async () => {
      await s?.close();
      if (mounted) execFileSync('umount', [mnt]);
      rmSync(mnt, { recursive: true, force: true });
    });

    const fullLines = () => logged.filter((l) => l.includes(DISK_FULL) && l.includes('writes answer 503'));
    const roomLines = () => logged.filter((l) => l.includes('has room again'));

    it('answers writes with 503 while the disk is full, goes on reading, says why in health, and recovers by itself', async () => {
      expect((await s.call('POST', '/idp/1.0/registration-requests', { body: registration('before') })).status).toBe(201);
      expect(await s.call('GET', API.health)).toMatchObject({ status: 200, body: { status: 'ok', writable: true } });

      // fill what is left of the disk
      const st = statfsSync(mnt);
      execFileSync('fallocate', ['-l', String(Number(st.bavail) * Number(st.bsize)), fill]);
      expect(Number(statfsSync(mnt).bavail)).toBe(0);
      // the server reads the free space at most every STATFS_EVERY_MS (a reading holds for the statements after it):
      // a write sent within that of the health check above was let through on the reading from before the fill, and
      // PGlite, whose current WAL segment had room, stored it (1 run in 3 with other test files beside it)
      await sleep(2 * STATFS_EVERY_MS);

      const write = await s.call('POST', '/idp/1.0/registration-requests', { body: registration('during') });
      expect(write).toMatchObject({ status: 503, body: { message: DISK_FULL } });
      const another = await s.call('POST', '/idp/1.0/registration-requests', { body: registration('during2') });
      expect(another).toMatchObject({ status: 503, body: { message: DISK_FULL } });
      // a backup (its image written to BACKUP_DIR on the same disk) is refused the same way
      expect(await s.call('POST', API.backups, { token: admin })).toMatchObject({ status: 503, body: { message: DISK_FULL } });

      const read = await s.call('GET', `${API.identities}?size=5`, { token: operator });
      expect(read.status).toBe(200);
      expect(read.body.items.length).toBeGreaterThan(0);

      for (let i = 0; i < 3; i++) {
        const health = await s.call('GET', API.health);
        expect(health).toMatchObject({ status: 503, body: { status: 'unavailable', writable: false } });
        expect(health.body.problem).toContain(DISK_FULL);
        expect(health.body.problem).toContain(join(mnt, 'data'));
      }
      expect(await s.count('select 1 from registration_requests where username like $1', ['during%'])).toBe(0);
      // said once, not per request
      expect(fullLines()).toHaveLength(1);
      expect(JSON.parse(fullLines()[0])).toMatchObject({ level: 50 });

      // space comes back: no restart, writes go through again once the server has looked (it does every second)
      rmSync(fill);
      let health = await s.call('GET', API.health);
      for (let waited = 0; health.status !== 200 && waited < 30_000; waited += 250) {
        await sleep(250);
        health = await s.call('GET', API.health);
      }
      expect(health).toMatchObject({ status: 200, body: { status: 'ok', writable: true } });
      expect(await s.call('POST', '/idp/1.0/registration-requests', { body: registration('after') })).toMatchObject({ status: 201 });
      expect(await s.count('select 1 from registration_requests where username = $1', ['after'])).toBe(1);
      expect((await s.call('POST', API.backups, { token: admin })).status).toBe(201);
      expect(fullLines()).toHaveLength(1);
      expect(roomLines()).toHaveLength(1);
      expect(existsSync(join(mnt, 'data', 'PG_VERSION'))).toBe(true);
    }, 120_000);

    it('says "read-only", not "disk is full", when the directory cannot be written at all, and recovers by itself (issue 45)', async () => {
      // the data directory made read-only under the running server: a read-only bind mount of it over itself (a remount
      // of the whole tmpfs is refused while the database holds files open for writing)
      const data = join(mnt, 'data');
      execFileSync('mount', ['--bind', data, data]);
      execFileSync('mount', ['-o', 'remount,bind,ro', data]);
      try {
        let health = await s.call('GET', API.health);
        for (let waited = 0; health.status === 200 && waited < 10_000; waited += 250) {
          await sleep(250);
          health = await s.call('GET', API.health);
        }
        expect(health).toMatchObject({ status: 503, body: { status: 'unavailable', writable: false } });
        expect(health.body.problem).toContain(DATA_DIR_READ_ONLY);
        expect(health.body.problem).toContain('is on a read-only file system');
        expect(health.body.problem).not.toContain(DISK_FULL);
        // the guard looks at the directory every second (health's own look may come first): writes are refused from then on
        let write = await s.call('POST', '/idp/1.0/registration-requests', { body: registration('readonly0') });
        for (let i = 1; write.status !== 503 && i < 40; i++) {
          await sleep(250);
          write = await s.call('POST', '/idp/1.0/registration-requests', { body: registration(`readonly${i}`) });
        }
        expect(write).toMatchObject({ status: 503, body: { message: DATA_DIR_READ_ONLY } });
        expect((await s.call('GET', `${API.identities}?size=5`, { token: operator })).status).toBe(200);
      } finally {
        execFileSync('umount', [data]);
      }
      let health = await s.call('GET', API.health);
      for (let waited = 0; health.status !== 200 && waited < 30_000; waited += 250) {
        await sleep(250);
        health = await s.call('GET', API.health);
      }
      expect(health).toMatchObject({ status: 200, body: { status: 'ok', writable: true } });
      expect(await s.call('POST', '/idp/1.0/registration-requests', { body: registration('writable') })).toMatchObject({ status: 201 });
    }, 120_000);
  });

describe('a health check whose write does not come back', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ healthTimeoutMs: 1000 });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('answers 503 with the reason instead of waiting, and 200 again once the write is free', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => {
      locked = r;
    });
    // a transaction holding the health probe's row (PostgreSQL: a row lock; PGlite: its one connection)
    const holder = s.db.transaction(async (tx) => {
      await tx.query(`insert into health_probe (id, at) values (1, now()) on conflict (id) do update set at = excluded.at`);
      locked();
      await held;
    });
    await lockTaken;
    try {
      const health = await s.call('GET', API.health);
      expect(health).toMatchObject({ status: 503, body: { status: 'unavailable', writable: false } });
      expect(health.body.problem).toMatch(/did not answer a write within 1 s/);
    } finally {
      release();
      await holder;
    }
    expect(await s.call('GET', API.health)).toMatchObject({ status: 200, body: { status: 'ok' } });
  }, 60_000);
});
