// Issue 31: the tamper-evident audit trail against the real server and database. The chain holds after ordinary
// writes, after writes at once (through one server; on PostgreSQL also two servers and two connection pools on one
// database); `npm run audit -- verify` (a child process on the real data) names a changed, a deleted and a swapped
// record and exits 1; an export checks offline with the public key alone, and a changed export does not.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../contract';
import { buildServer } from '../app';
import { openPglite, openPostgres, type Db } from '../db/db';
import { insertAudit } from '../db/queries/audit';
import { startTestServer, type TestServer } from '../testkit';
import { AUDIT_EXPORT_PATH, AUDIT_PUBLIC_KEY_PATH, AUDIT_VERIFY_PATH } from './routes';
import { auditCommand, bufferIo } from '../../scripts/auditCommand';

const run = promisify(execFile);
const PG = process.env.DATABASE_URL;
let s: TestServer;
let nw: string;
let northwind: number;
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-audit-'));
const dataDir = join(dir, 'data');
/** PostgreSQL: the test server's own database, for the command line and a second server. */
let dbUrl = '';

beforeAll(async () => {
  s = await startTestServer(PG ? {} : { dataDir });
  if (PG) {
    const name = (await s.db.query<{ n: string }>('select current_database() as n')).rows[0].n;
    const u = new URL(PG);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
  }
  nw = await s.loginTo('admin', 'NORTHWIND');
  northwind = Number((await s.db.query<{ id: number }>(`select id from clients where code = 'NORTHWIND'`)).rows[0].id);
}, 60_000);
afterAll(async () => {
  await s?.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
const addDivision = async (token = nw, call = s.call) => {
  const r = await call('POST', API.divisions, { token, body: { name: `Audit wing ${++n}-${Math.random().toString(36).slice(2, 7)}` } });
  expect(r.status).toBe(201);
  return r.body as { id: number };
};

/** `npm run audit -- …` as a child process on the test's database; its exit code and output. */
/** `npm run audit -- …` in this process (scripts/auditCommand.ts, what the command line runs), on this test's database. */
async function command(...args: string[]): Promise<{ code: number; out: string }> {
  const io = bufferIo({ ...process.env, DATABASE_URL: dbUrl, DATA_DIR: dataDir });
  const code = await auditCommand(args, io);
  return { code, out: io.text() };
}
/** The command line itself, a process of its own (its exit code and output as a shell sees them). */
async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const env = { ...process.env, DATABASE_URL: dbUrl, DATA_DIR: dataDir };
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', ...args], { env, timeout: 60_000 });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, out: `${x.stdout ?? ''}${x.stderr ?? ''}` };
  }
}

describe('the audit chain in the database', () => {
  it('chains ordinary writes: seq from 1, each row linked to the one before, and the server verifies it', async () => {
    for (let i = 0; i < 3; i++) await addDivision();
    const { rows } = await s.db.query<{ seq: string; prev_hash: string | null; hash: string }>(
      'select seq::text, prev_hash, hash from audit_log where client_id = $1 order by seq',
      [northwind],
    );
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
    expect(rows[0].prev_hash).toBeNull();
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    const v = await s.call('GET', AUDIT_VERIFY_PATH, { token: nw });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ ok: true, chains: 1, records: rows.length, problem: null, upTo: { seq: rows.length } });
  });

  it('keeps one chain when writes arrive at once through the server', async () => {
    const before = await s.count('select 1 from audit_log where client_id = $1', [northwind]);
    await Promise.all(Array.from({ length: 12 }, () => addDivision()));
    expect(await s.count('select 1 from audit_log where client_id = $1', [northwind])).toBe(before + 12);
    const v = await s.call('GET', AUDIT_VERIFY_PATH, { token: nw });
    expect(v.body).toMatchObject({ ok: true, records: before + 12 });
  });

  it('keeps one chain when requests and transactions write at once (on PostgreSQL: two servers and two connection pools on one database)', async () => {
    // an embedded database has one user (this server); on PostgreSQL a second server and its own pool share the database
    const db2 = PG ? await openPostgres(dbUrl) : null;
    const app2 = db2
      ? await buildServer({
          db: db2,
          jwtSecret: 'test-secret-of-enough-length',
          staticDir: null,
          allowPrivateWebhookTargets: true,
          rateLimit: { max: 100_000, windowMs: 60_000 },
        })
      : null;
    try {
      let call2 = s.call;
      if (app2) {
        await app2.listen({ port: 0, host: '127.0.0.1' });
        const address = app2.server.address();
        const base2 = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        call2 = async (method, path, opts = {}) => {
          const res = await fetch(base2 + path, {
            method,
            headers: { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(opts.body),
          });
          return { status: res.status, body: await res.json() };
        };
      }
      const before = await s.count('select 1 from audit_log where client_id = $1', [northwind]);
      await Promise.all([
        ...Array.from({ length: 10 }, () => addDivision(nw, s.call)),
        ...Array.from({ length: 10 }, () => addDivision(nw, call2)),
        // and straight into the table, in transactions that each write several rows
        ...Array.from({ length: 6 }, (_, i) =>
          (i % 2 || !db2 ? s.db : db2).transaction(async (tx) => {
            for (let k = 0; k < 3; k++)
              await insertAudit(tx, {
                clientId: northwind,
                actor: 'test',
                action: 'update',
                entity: 'probe',
                entityId: `${i}-${k}`,
                before: null,
                after: { k },
              });
          }),
        ),
      ]);
      expect(await s.count('select 1 from audit_log where client_id = $1', [northwind])).toBe(before + 20 + 18);
      const v = await s.call('GET', AUDIT_VERIFY_PATH, { token: nw });
      expect(v.body).toMatchObject({ ok: true, records: before + 38 });
    } finally {
      await app2?.close();
      await db2?.close();
    }
  });

  it('lets only the holders of the activity report verify, and shows the public key to anyone', async () => {
    const reception = await s.login('reception');
    expect((await s.call('GET', AUDIT_VERIFY_PATH, { token: reception })).status).toBe(403);
    expect((await s.call('GET', AUDIT_VERIFY_PATH)).status).toBe(401);
    const auditor = await s.login('auditor');
    expect((await s.call('GET', AUDIT_VERIFY_PATH, { token: auditor })).body).toMatchObject({ ok: true });
    const key = await s.call('GET', AUDIT_PUBLIC_KEY_PATH);
    expect(key.status).toBe(200);
    expect(key.body).toMatchObject({ algorithm: 'Ed25519', publicKey: expect.stringContaining('BEGIN PUBLIC KEY') });
  });
});

describe('an export checked offline with the public key alone', () => {
  let file = '';
  let keyFile = '';
  let lines: string[] = [];
  beforeAll(async () => {
    await addDivision();
    const res = await fetch(s.base + AUDIT_EXPORT_PATH, { headers: { authorization: `Bearer ${nw}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="audit-client-\d+-.*\.ndjson"/);
    const text = await res.text();
    lines = text.trim().split('\n');
    file = join(dir, 'export.ndjson');
    writeFileSync(file, text);
    keyFile = join(dir, 'audit.pub.pem');
    writeFileSync(keyFile, (await s.call('GET', AUDIT_PUBLIC_KEY_PATH)).body.publicKey);
  }, 60_000);

  it('carries every record with its hash, up to the head it signed (the export itself included)', async () => {
    const header = JSON.parse(lines[0]);
    const records = lines.slice(1).map((l) => JSON.parse(l));
    const total = await s.count('select 1 from audit_log where client_id = $1', [northwind]);
    expect(header).toMatchObject({ format: 'gatehouse-audit-export/1', clientId: northwind, records: total, head: { clientId: northwind, seq: total } });
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
    expect(records.at(-1)).toMatchObject({ action: 'export', entity: 'audit', actor: 'admin', hash: header.head.hash });
  });

  it('verify-export passes a good export and names the record of a changed one', async () => {
    const good = await cli('verify-export', file, '--key', keyFile);
    expect(good.code, good.out).toBe(0);
    expect(good.out).toContain(`OK: ${lines.length - 1} records checked`);

    // a changed operator name on the third record
    const changed = [...lines];
    const third = JSON.parse(changed[3]);
    changed[3] = JSON.stringify({ ...third, actor: 'someone-else' });
    const bad = join(dir, 'changed.ndjson');
    writeFileSync(bad, changed.join('\n') + '\n');
    const r = await cli('verify-export', bad, '--key', keyFile);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`line 4: record ${third.id} (seq 3)`);

    // a record left out
    const cut = join(dir, 'cut.ndjson');
    writeFileSync(cut, [...lines.slice(0, 2), ...lines.slice(3)].join('\n') + '\n');
    const c = await command('verify-export', cut, '--key', keyFile);
    expect(c.code).toBe(1);
    expect(c.out).toMatch(/record \d+ \(client \d+, seq 3\): record seq 2 is missing before it/);

    // re-signed with another key: the head's signature fails against the server's public key
    const { generateKeyPairSync } = await import('node:crypto');
    const other = join(dir, 'other.pub.pem');
    writeFileSync(other, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const k = await command('verify-export', file, '--key', other);
    expect(k.code).toBe(1);
    expect(k.out).toContain('has no valid signature for this key');
  }, 120_000);
});

describe('npm run audit -- verify on the real data', () => {
  type Snapshot = Record<string, unknown>[];
  let handle: Db | null = null;
  /** The database as the command line sees it: the running server's PostgreSQL, or the closed server's data dir. */
  const open = async () => (PG ? s.db : (handle = await openPglite(dataDir)));
  const done = async () => {
    if (!PG) {
      await handle?.close();
      handle = null;
    }
  };
  let snapshot: Snapshot = [];
  let middle: { id: number; seq: number };

  beforeAll(async () => {
    if (!PG) await s.close(); // an embedded database has one user at a time
    const db = await open();
    // as jsonb text: every column exactly (a timestamp read into a Date would lose its microseconds)
    snapshot = JSON.parse((await db.query<{ j: string }>("select coalesce(jsonb_agg(to_jsonb(a) order by id), '[]')::text as j from audit_log a")).rows[0].j);
    const row = (await db.query<{ id: string; seq: string }>('select id, seq from audit_log where client_id = $1 order by seq offset 2 limit 1', [northwind]))
      .rows[0];
    middle = { id: Number(row.id), seq: Number(row.seq) };
    await done();
  }, 60_000);

  /** Runs `tamper` on the database, then the command line, then puts every audit row back as it was. */
  async function tampered(tamper: (db: Db) => Promise<unknown>) {
    let db = await open();
    await tamper(db);
    await done();
    const out = await command('verify');
    db = await open();
    await db.transaction(async (tx) => {
      await tx.exec('alter table audit_log disable trigger user');
      await tx.query('delete from audit_log');
      await tx.query('insert into audit_log select * from jsonb_populate_recordset(null::audit_log, $1::jsonb)', [JSON.stringify(snapshot)]);
      await tx.exec('alter table audit_log enable trigger user');
    });
    await done();
    return out;
  }

  it('prints the number of records checked and exits 0 on an untouched trail', async () => {
    const r = await cli('verify');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`OK: ${snapshot.length} records checked`);
  }, 60_000);

  it('names a record whose content was changed', async () => {
    const r = await tampered((db) => db.query(`update audit_log set actor = 'nobody' where id = $1`, [middle.id]));
    expect(r.code).toBe(1);
    expect(r.out).toContain(`record ${middle.id} (client ${northwind}, seq ${middle.seq}): its content does not match its hash`);
  }, 60_000);

  it('names the record after a deleted one', async () => {
    const r = await tampered((db) => db.query('delete from audit_log where id = $1', [middle.id]));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(new RegExp(`record \\d+ \\(client ${northwind}, seq ${middle.seq + 1}\\): record seq ${middle.seq} is missing before it`));
  }, 60_000);

  it('names a record moved out of its place (two records swapped)', async () => {
    const r = await tampered(async (db) => {
      // the two records trade places in the chain: each takes the other's seq (one at a time: seq is unique per chain)
      const seqOf = (seq: number, to: number) => db.query('update audit_log set seq = $3 where client_id = $1 and seq = $2', [northwind, seq, to]);
      await seqOf(middle.seq, -1);
      await seqOf(middle.seq + 1, middle.seq);
      await seqOf(-1, middle.seq + 1);
    });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`record ${middle.id} (client ${northwind}, seq ${middle.seq + 1}): out of order (seq ${middle.seq} expected`);
  }, 60_000);

  it('names the signed head when records at the end were deleted', async () => {
    const r = await tampered((db) =>
      db.query('delete from audit_log where client_id = $1 and seq = (select max(seq) from audit_log where client_id = $1)', [northwind]),
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      new RegExp(`the signed head of client ${northwind} \\(seq \\d+, signed .*\\): the chain ends at seq \\d+; records at its end were deleted`),
    );
  }, 60_000);

  it('and the trail put back verifies again', async () => {
    const r = await command('verify');
    expect(r.code, r.out).toBe(0);
  }, 60_000);
});

describe('the canonical content', () => {
  it('is written down and reproducible: the hash is SHA-256 of the text audit_canonical gives', async () => {
    const db = PG ? s.db : await openPglite(dataDir);
    try {
      const { rows } = await db.query<{ canonical: string; hash: string }>(
        'select audit_canonical(a) as canonical, hash from audit_log a where client_id = $1 order by seq limit 1',
        [northwind],
      );
      const { createHash } = await import('node:crypto');
      expect(createHash('sha256').update(rows[0].canonical, 'utf8').digest('hex')).toBe(rows[0].hash);
      expect(JSON.parse(rows[0].canonical)).toEqual([
        'gatehouse-audit/1',
        expect.any(Number),
        northwind,
        1,
        null,
        'admin',
        'create',
        'division',
        expect.any(String),
        null,
        expect.any(Object),
        expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      ]);
    } finally {
      if (!PG) await db.close();
    }
  });
});
