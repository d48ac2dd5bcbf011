// Issue 45: a backup of the embedded database kept in a real directory (as `npm start` keeps it) is taken from a copy of
// its files, made while statements wait for a moment, then packed and compressed as a stream: the server's event loop
// is never held by the packing (PGlite's own dump read and packed every file on it, about 3 s for the demo's 7 MB, and
// /api/health waited). The image is PGlite's own format: it opens in the backup inspector (a worker thread) and in
// PGlite itself, with the last change made before it and without the server's pid file. On PostgreSQL (pg_dump) the
// same promise is checked for health.
import { mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { openPglite, SERVER_PID_FILE, holdDataDir } from '../db/db';
import { startTestServer, type TestServer } from '../testkit';
import { backupFile, inspectImage } from './backups';

const pglite = !process.env.DATABASE_URL;
const root = mkdtempSync(join(tmpdir(), 'gh-backup-on-disk-'));
const dataDir = join(root, 'data');
const dir = join(root, 'backups');
let s: TestServer;
let admin: string;
/** What the server logged as an error (a refused backup's 500 says why here; it failed once in CI, 2026-12-03 13:27, not seen since). */
const errors: string[] = [];
const logger = { stream: { write: (line: string) => void (JSON.parse(line).level >= 50 && errors.push(line)) } };

beforeAll(async () => {
  s = await startTestServer({ ...(pglite ? { dataDir } : {}), backups: { dir, restart: () => {} }, logger });
  if (pglite) holdDataDir(dataDir); // as server/main.ts does: the pid file must not travel in the image
  admin = await s.loginTo('admin', 'NORTHWIND');
}, 120_000);
afterAll(async () => {
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a backup of a database kept on disk', () => {
  it("health keeps answering 200 while the backup is taken (no gap near the backup's length), and the image holds the last change", async () => {
    const marker = `Backup marker ${Date.now()}`;
    const { rows: div } = await s.db.query<{ id: number }>(
      `select d.id from divisions d join clients c on c.id = d.client_id where c.code = 'NORTHWIND' order by d.id limit 1`,
    );
    const made = await s.call('POST', API.identities, {
      token: admin,
      body: { firstName: 'Backup', lastName: marker, employeeNo: 'BK-1', divisionId: div[0].id },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    // health is asked every 10 ms (a monitor's pace: back to back, the asks themselves slowed the backup tenfold) from
    // the moment the backup is asked for until it is answered, and the gaps between its answers are measured. A backup
    // packed on the event loop (PGlite's own dump) shows as one gap of most of the backup's length. A timed bound (the
    // issue's 100 ms) would be flaky on a loaded 2-core machine, so the longest gap is held to a third of the backup's
    // own length (`npm run bench -- backup` measures the 100 ms). Seen at load 8: 582 answers in a 9.8 s backup, the
    // longest gap 262 ms; with PGlite's dump instead (the test fails): 52 answers in 2.2 s, one gap of 1.35 s
    const started = performance.now();
    let ended = 0;
    const backup = s.call('POST', API.backups, { token: admin }).finally(() => (ended = performance.now()));
    const answers: { at: number; status: number }[] = [];
    while (!ended) {
      const h = await s.call('GET', API.health);
      answers.push({ at: performance.now(), status: h.status });
      await new Promise((r) => setTimeout(r, 10));
    }
    const taken = await backup;
    expect(taken.status, `${JSON.stringify(taken.body)}; the server logged: ${errors.join('\n')}`).toBe(201);
    expect(answers.map((a) => a.status).filter((st) => st !== 200)).toEqual([]);
    const during = answers.filter((a) => a.at < ended).map((a) => a.at);
    const stamps = [started, ...during, ended];
    const longestGap = Math.max(...stamps.slice(1).map((t, i) => t - stamps[i]));
    const took = ended - started;
    const seen = `${during.length} health answers during a ${Math.round(took)} ms backup, the longest gap ${Math.round(longestGap)} ms`;
    expect(during.length, seen).toBeGreaterThanOrEqual(3);
    expect(longestGap, seen).toBeLessThan(took / 3);
    if (!pglite) return;

    // no copy is left beside the backups, and the image is a PGlite data directory without the pid file
    expect(readdirSync(dir).filter((f) => f.startsWith('.snapshot-') || f.endsWith('.part'))).toEqual([]);
    const file = backupFile(dir, taken.body.id);
    const names = tarNames(gunzipSync(readFileSync(file)));
    expect(names).toContain('PG_VERSION');
    expect(names.some((n) => n.endsWith(SERVER_PID_FILE))).toBe(false);
    expect((await inspectImage(file)).clients).toBeGreaterThan(0);
    const opened = await openPglite('memory://', await openAsBlob(file));
    try {
      const { rows } = await opened.query<{ n: number }>('select count(*)::int as n from identities where last_name = $1', [marker]);
      expect(rows[0].n).toBe(1);
    } finally {
      await opened.close();
    }
  }, 240_000);
});

/** The member names of a ustar archive. */
function tarNames(tar: Buffer): string[] {
  const names: string[] = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const name = tar
      .subarray(at, at + 100)
      .toString()
      .replace(/\0.*$/s, '');
    if (!name) break;
    const size = parseInt(
      tar
        .subarray(at + 124, at + 136)
        .toString()
        .replace(/\0.*$/s, '')
        .trim() || '0',
      8,
    );
    names.push(name.replace(/\/$/, ''));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}
