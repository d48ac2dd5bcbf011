// Issue 51: the walk of the audit chains in the database (verify.ts, verifyChains) against a real database (PGlite),
// without a server: records written through the chain's own trigger, heads signed as the server signs them, then each
// kind of tampering done in a transaction that is rolled back after the walk, so every test starts from the same good
// chains. What is expected is worked out here from the rows the test wrote (their ids and places), not from the walk.
// It is in the mutation run's tests (vitest.mutation.config.ts), where verifyOffline.test.ts cannot reach the walk.
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from '../db/db';
import { migrate } from '../db/migrate';
import { insertAudit } from '../db/queries/audit';
import { auditSigningKey, sha256Hex, signHeads, verifyChains, type ChainReport } from './chain';
import { PAGE } from './verify';
import { seededImage } from '../testImage';

/** Set by vitest's global setup (server/testTemplate.ts): a migrated database image; absent in the mutation run. */
const IMAGE = process.env.GATEHOUSE_TEST_PGLITE_IMAGE;
const A = 7001; // two clients' chains and the chain of records of no client
const B = 7002;
const BIG = 7003; // a chain longer than one page of the walk
let db: Db;
let key: KeyObject;
let pub: KeyObject;
/** The rows of each chain as written: id and seq, in the order written. */
const rows = new Map<number | null, Array<{ id: number; seq: number }>>();

async function write(clientId: number | null, n: number) {
  for (let i = 0; i < n; i++)
    await insertAudit(db, { clientId, actor: 'tester', action: 'create', entity: 'division', entityId: i, before: null, after: { name: `wing ${i}` } });
}
async function chainRows(tx: Db, clientId: number | null) {
  const { rows: r } = await tx.query<{ id: string; seq: string }>(
    clientId === null
      ? 'select id, seq from audit_log where client_id is null order by seq'
      : 'select id, seq from audit_log where client_id = $1 order by seq',
    clientId === null ? [] : [clientId],
  );
  return r.map((x) => ({ id: Number(x.id), seq: Number(x.seq) }));
}

const ROLLBACK = new Error('rolled back');
/** Tampers with the database, walks it, and puts everything back (the transaction is rolled back). */
async function walkAfter(tamper: (tx: Db) => Promise<unknown>, scope: Parameters<typeof verifyChains>[2], publicKey: KeyObject | null = pub) {
  let report: ChainReport | null = null;
  await db
    .transaction(async (tx) => {
      await tamper(tx);
      report = await verifyChains(tx, publicKey, scope);
      throw ROLLBACK;
    })
    .catch((e) => {
      if (e !== ROLLBACK) throw e;
    });
  return report! as ChainReport;
}
/** Rewrites a record as a forger who knows the canonical form would: its new content gets its own correct hash. */
async function rehash(tx: Db, id: number) {
  const { rows: r } = await tx.query<{ canonical: string }>('select audit_canonical(a) as canonical from audit_log a where id = $1', [id]);
  await tx.query('update audit_log set hash = $2 where id = $1', [id, sha256Hex(r[0].canonical)]);
}

beforeAll(async () => {
  db = await openPglite('memory://', IMAGE ? seededImage(IMAGE) : undefined);
  await migrate(db);
  await db.query('delete from audit_log'); // the image's seed wrote records of its own
  await db.query('delete from audit_heads');
  // the heads are signed for the chain of no client and each client's (signHeads reads the clients)
  await db.query(`insert into clients (id, name, code, timezone) values ($1, 'Audit A', 'AUDIT-WALK-A', 'UTC'), ($2, 'Audit B', 'AUDIT-WALK-B', 'UTC')`, [
    A,
    B,
  ]);
  await write(A, 6);
  await write(null, 3);
  await write(B, 4);
  await write(A, 2); // A's chain goes on after the others were written: ids of one chain are not consecutive
  for (const c of [A, B, null]) rows.set(c, await chainRows(db, c));
  key = await auditSigningKey(db);
  pub = createPublicKey(key);
  await signHeads(db, key, 'all');
}, 120_000);
afterAll(async () => {
  await db?.close();
});

const a = () => rows.get(A)!;
const named = (clientId: number | null, r: { id: number; seq: number }) => `record ${r.id} (client ${clientId ?? 'none'}, seq ${r.seq})`;

describe('verifyChains walks the chains in the database', () => {
  it('finds every chain good as written: all of them, or one client, up to its newest record and its signed head', async () => {
    expect(a().map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const all = await verifyChains(db, pub, 'all');
    expect(all).toEqual({ ok: true, chains: 3, records: 8 + 3 + 4, upTo: null, head: null, problem: null });
    const one = await verifyChains(db, pub, { clientId: A });
    expect(one.ok).toBe(true);
    expect(one.chains).toBe(1);
    expect(one.records).toBe(8);
    expect(one.upTo).toEqual({ seq: 8, id: a()[7].id, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) });
    expect(one.head).toMatchObject({ clientId: A, seq: 8 });
    const none = await verifyChains(db, pub, { clientId: null });
    expect(none).toMatchObject({ ok: true, chains: 1, records: 3, upTo: { seq: 3, id: rows.get(null)![2].id }, head: { clientId: null, seq: 3 } });
    // without a key the heads' places are still checked, not their signatures
    expect((await verifyChains(db, null, { clientId: B })).ok).toBe(true);
  });

  it('names a record whose content was changed, having counted the records before it', async () => {
    const changed = a()[3];
    const r = await walkAfter((tx) => tx.query(`update audit_log set actor = 'nobody' where id = $1`, [changed.id]), { clientId: A });
    expect(r.ok).toBe(false);
    expect(r.records).toBe(3);
    expect(r.upTo).toMatchObject({ seq: 3, id: a()[2].id });
    expect(r.problem).toEqual({
      clientId: A,
      seq: 4,
      id: changed.id,
      kind: 'content',
      message: `${named(A, changed)}: its content does not match its hash (changed after it was written)`,
      // issue 48: its key and values, said in the auditor's language on the activity report
      code: 'audit.contentChanged',
      values: { record: changed.id, client: A, seq: 4 },
    });
    // the whole trail stops at the same record; the chains walked before it count
    const all = await walkAfter((tx) => tx.query(`update audit_log set actor = 'nobody' where id = $1`, [changed.id]), 'all');
    expect(all.ok).toBe(false);
    expect(all.problem).toMatchObject({ clientId: A, id: changed.id, kind: 'content' });
    expect(all.records).toBe(3 + 3); // the chain of no client (-1) is walked first, then A's up to the changed record
  });

  it('names a rewritten record whose hash was made again: its link to the record before it', async () => {
    const forged = a()[4];
    const r = await walkAfter(
      async (tx) => {
        await tx.query(`update audit_log set prev_hash = repeat('0', 64) where id = $1`, [forged.id]);
        await rehash(tx, forged.id);
      },
      { clientId: A },
    );
    expect(r.problem).toEqual({
      clientId: A,
      seq: 5,
      id: forged.id,
      kind: 'link',
      message: `${named(A, forged)}: its link does not match the hash of the record before it`,
      code: 'audit.linkBroken',
      values: { record: forged.id, client: A, seq: 5 },
    });
  });

  it('names the record after a removed one, and the records missing before it', async () => {
    const r = await walkAfter((tx) => tx.query('delete from audit_log where id = $1', [a()[2].id]), { clientId: A });
    expect(r.problem).toEqual({
      clientId: A,
      seq: 4,
      id: a()[3].id,
      kind: 'missing',
      message: `${named(A, a()[3])}: record seq 3 is missing before it`,
      code: 'audit.recordMissing',
      values: { record: a()[3].id, client: A, seq: 4, expected: 3 },
    });
    expect(r.records).toBe(2);
    const two = await walkAfter((tx) => tx.query('delete from audit_log where id = any($1)', [[a()[2].id, a()[3].id]]), { clientId: A });
    expect(two.problem).toMatchObject({ id: a()[4].id, kind: 'missing', message: `${named(A, a()[4])}: records seq 3–4 are missing before it` });
    const first = await walkAfter((tx) => tx.query('delete from audit_log where id = $1', [a()[0].id]), { clientId: A });
    expect(first.problem).toMatchObject({ id: a()[1].id, seq: 2, kind: 'missing', message: `${named(A, a()[1])}: record seq 1 is missing before it` });
    expect(first.upTo).toBeNull();
  });

  it('names a record moved out of its place (two records swapped), and the record that holds its place', async () => {
    const [x, y] = [a()[4], a()[5]];
    const r = await walkAfter(
      async (tx) => {
        const seqOf = (seq: number, to: number) => tx.query('update audit_log set seq = $3 where client_id = $1 and seq = $2', [A, seq, to]);
        await seqOf(x.seq, -1);
        await seqOf(y.seq, x.seq);
        await seqOf(-1, y.seq);
      },
      { clientId: A },
    );
    expect(r.problem).toEqual({
      clientId: A,
      seq: y.seq,
      id: x.id,
      kind: 'order',
      message: `record ${x.id} (client ${A}, seq ${y.seq}): out of order (seq ${x.seq} expected; that is record ${y.id}, written after it)`,
      code: 'audit.writtenLater',
      values: { record: x.id, client: A, seq: y.seq, expected: x.seq, at: y.id },
    });
    // the same in the chain of records of no client, named as such
    const [n1, n2] = rows.get(null)!;
    const none = await walkAfter(
      async (tx) => {
        const seqOf = (seq: number, to: number) => tx.query('update audit_log set seq = $2 where client_id is null and seq = $1', [seq, to]);
        await seqOf(1, -1);
        await seqOf(2, 1);
        await seqOf(-1, 2);
      },
      { clientId: null },
    );
    expect(none.problem).toEqual({
      clientId: null,
      seq: 2,
      id: n1.id,
      kind: 'order',
      message: `record ${n1.id} (client none, seq 2): out of order (seq 1 expected; that is record ${n2.id}, written after it)`,
      code: 'audit.writtenLater',
      values: { record: n1.id, client: 'none', seq: 2, expected: 1, at: n2.id },
    });
    // a seq skipped that no record holds is missing, not out of order (the look-up finds nothing)
    const moved = await walkAfter((tx) => tx.query('update audit_log set seq = 40 where id = $1', [x.id]), { clientId: A });
    expect(moved.problem).toMatchObject({
      id: x.id,
      seq: 40,
      kind: 'missing',
      message: `${named(A, { id: x.id, seq: 40 })}: records seq 5–39 are missing before it`,
    });
  });

  it('names the signed head when the newest record was cut, in its chain only', async () => {
    const newest = a()[7];
    const r = await walkAfter((tx) => tx.query('delete from audit_log where id = $1', [newest.id]), { clientId: A });
    expect(r.ok).toBe(false);
    expect(r.records).toBe(7);
    expect(r.problem).toMatchObject({ clientId: A, seq: 8, id: null, kind: 'missing' });
    expect(r.problem!.message).toMatch(
      new RegExp(`^the signed head of client ${A} \\(seq 8, signed [^)]+\\): the chain ends at seq 7; records at its end were deleted$`),
    );
    // another client's chain is untouched by it
    expect((await walkAfter((tx) => tx.query('delete from audit_log where id = $1', [newest.id]), { clientId: B })).ok).toBe(true);
    // and the whole trail names it too, after the chains before it
    const all = await walkAfter((tx) => tx.query('delete from audit_log where id = $1', [newest.id]), 'all');
    expect(all.problem).toMatchObject({ clientId: A, kind: 'missing' });
  });

  it('names the signed head when its record was replaced by a consistent rewrite, or when the head is not signed by the key', async () => {
    const newest = a()[7];
    const r = await walkAfter(
      async (tx) => {
        await tx.query(`update audit_log set actor = 'nobody' where id = $1`, [newest.id]);
        await rehash(tx, newest.id);
      },
      { clientId: A },
    );
    expect(r.problem).toMatchObject({ clientId: A, seq: 8, id: newest.id, kind: 'head' });
    expect(r.problem!.message).toMatch(
      new RegExp(`^the signed head of client ${A} \\(seq 8, signed [^)]+\\): the record at seq 8 \\(id ${newest.id}\\) is not the one signed$`),
    );
    const other = generateKeyPairSync('ed25519').publicKey;
    const unsigned = await walkAfter(async () => {}, { clientId: A }, other);
    expect(unsigned.problem).toMatchObject({ clientId: A, seq: 8, kind: 'head' });
    expect(unsigned.problem!.message).toMatch(/: its signature is not valid for this key$/);
    expect(unsigned.records).toBe(8);
  });

  it('names a chain whose every record was deleted by its signed head, in the whole trail', async () => {
    const r = await walkAfter((tx) => tx.query('delete from audit_log where client_id = $1', [B]), 'all');
    expect(r.ok).toBe(false);
    expect(r.chains).toBe(3);
    expect(r.problem).toMatchObject({ clientId: B, seq: 4, id: null, kind: 'missing' });
    expect(r.problem!.message).toMatch(/: the chain ends at seq 0; records at its end were deleted$/);
    // one client: its chain's records are gone, its head is not
    const one = await walkAfter((tx) => tx.query('delete from audit_log where client_id = $1', [B]), { clientId: B });
    expect(one).toMatchObject({ ok: false, records: 0, upTo: null, problem: { kind: 'missing' } });
  });

  it(`walks a chain longer than one page (${PAGE} records) to its end and names a changed record on the second page`, async () => {
    await db.query(
      `insert into audit_log (client_id, actor, action, entity, entity_id) select $1, 'tester', 'create', 'division', g::text from generate_series(1, $2) g`,
      [BIG, PAGE + 3],
    );
    const last = (await chainRows(db, BIG)).at(-1)!;
    const good = await verifyChains(db, pub, { clientId: BIG });
    expect(good).toMatchObject({ ok: true, records: PAGE + 3, upTo: { seq: PAGE + 3, id: last.id }, head: null });
    const changed = await walkAfter((tx) => tx.query(`update audit_log set actor = 'nobody' where client_id = $1 and seq = $2`, [BIG, PAGE + 2]), {
      clientId: BIG,
    });
    expect(changed.problem).toMatchObject({ clientId: BIG, seq: PAGE + 2, kind: 'content' });
    expect(changed.records).toBe(PAGE + 1);
    await db.query('delete from audit_log where client_id = $1', [BIG]);
  }, 120_000);
});
