// The audit chain's checks without a database (issue 51: an oracle of the test's own). An export is built here the
// way the format says (server/audit/export.ts), with this file's own SHA-256, canonical text and Ed25519 signature
// (node:crypto, not the module's helpers), then each kind of tampering an auditor must be told about is applied to it:
// the verifier must name the kind, the record and the line, and pass the untouched export. The same checks of one
// record and of a signed head (checkLink, checkHead) serve the check of the trail in the database (chain.test.ts).
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkHead, checkLink, verifyExport, type LinkRecord, type SignedHead } from './chain';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const keys = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const CLIENT = 7;

interface Rec {
  seq: number;
  id: number;
  at: string;
  actor: string;
  action: string;
  entity: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
  prevHash: string | null;
  hash: string;
  canonical: string;
}
/** The canonical content as the format writes it (version, id, client, seq, link, who, what, on what, before, after, when). */
function sealed(r: Omit<Rec, 'hash' | 'canonical'>, clientId: number | null = CLIENT): Rec {
  const canonical = JSON.stringify(['gatehouse-audit/1', r.id, clientId, r.seq, r.prevHash, r.actor, r.action, r.entity, r.entityId, r.before, r.after, r.at]);
  return { ...r, canonical, hash: sha(canonical) };
}
/** A chain of n records, ids 10 apart, each linked to the hash of the one before. */
function chain(n: number, clientId: number | null = CLIENT): Rec[] {
  const out: Rec[] = [];
  for (let seq = 1; seq <= n; seq++) {
    const at = new Date(Date.UTC(2026, 11, 1, 8, 0, seq)).toISOString().replace('Z', '000Z');
    out.push(
      sealed(
        {
          seq,
          id: 100 + seq * 10,
          at,
          actor: `op${seq}`,
          action: 'update',
          entity: 'door',
          entityId: String(seq),
          before: { mode: 'a' },
          after: { mode: 'b' },
          prevHash: out[seq - 2]?.hash ?? null,
        },
        clientId,
      ),
    );
  }
  return out;
}
function head(last: Rec, key: KeyObject = keys.privateKey, clientId: number | null = CLIENT): SignedHead {
  const signedAt = '2026-12-01T09:00:00.000Z';
  const message = ['gatehouse-audit-head/1', clientId ?? 'none', last.seq, last.hash, signedAt].join('\n');
  return { clientId, seq: last.seq, hash: last.hash, signedAt, signature: sign(null, Buffer.from(message, 'utf8'), key).toString('base64') };
}
function file(records: Rec[], h: SignedHead | null, over: Record<string, unknown> = {}): string {
  const header = {
    format: 'gatehouse-audit-export/1',
    clientId: CLIENT,
    exportedAt: '2026-12-01T09:00:01.000Z',
    records: records.length,
    publicKey: '',
    head: h,
    ...over,
  };
  return [JSON.stringify(header), ...records.map((r) => JSON.stringify(r))].join('\n') + '\n';
}
const verify = (text: string) => verifyExport(text, keys.publicKey);
const link = (r: Rec): LinkRecord => ({ id: r.id, seq: r.seq, prevHash: r.prevHash, hash: r.hash, canonical: r.canonical });

describe('an export checked offline', () => {
  const five = chain(5);
  const signed = head(five[4]);

  it('passes an untouched export: every record counted, up to the head it carries', () => {
    expect(verify(file(five, signed))).toEqual({ ok: true, records: 5, head: signed, problem: null });
    expect(verify(file([], null, { records: 0 }))).toEqual({ ok: true, records: 0, head: null, problem: null });
  });

  it('names a record whose content changed after it was written (its hash kept)', () => {
    const changed = five.map((r) => (r.seq === 3 ? { ...r, canonical: r.canonical.replace('op3', 'op9'), actor: 'op9' } : r));
    expect(verify(file(changed, signed)).problem).toMatchObject({ kind: 'content', line: 4, seq: 3, id: 130, clientId: CLIENT });
    expect(verify(file(changed, signed)).records).toBe(2);
  });

  it('names a record whose shown fields say something else than its hashed content', () => {
    for (const field of ['actor', 'action', 'entity', 'entityId', 'before', 'after', 'at'] as const) {
      const changed = five.map((r) => (r.seq === 2 ? { ...r, [field]: field === 'before' || field === 'after' ? { mode: 'z' } : 'x' } : r));
      const report = verify(file(changed, signed));
      expect(report.problem, field).toMatchObject({ kind: 'content', line: 3, seq: 2 });
      expect(report.problem!.message).toContain('its fields do not say what its hashed content says');
    }
  });

  it('names the record after a deleted one, and the seqs missing', () => {
    const one = five.filter((r) => r.seq !== 3);
    expect(verify(file(one, signed)).problem).toMatchObject({ kind: 'missing', line: 4, seq: 4, id: 140 });
    expect(verify(file(one, signed)).problem!.message).toContain('record seq 3 is missing before it');
    const two = five.filter((r) => r.seq !== 2 && r.seq !== 3);
    expect(verify(file(two, signed)).problem!.message).toContain('records seq 2–3 are missing before it');
    const first = five.slice(1);
    expect(verify(file(first, signed)).problem).toMatchObject({ kind: 'missing', line: 2, seq: 2 });
  });

  it('names two records swapped as out of order, and where the missing one is', () => {
    const swapped = [five[0], five[2], five[1], five[3], five[4]];
    const report = verify(file(swapped, signed));
    expect(report.problem).toMatchObject({ kind: 'order', line: 3, seq: 3 });
    expect(report.problem!.message).toContain('seq 2 expected; it is on line 4');
  });

  it('names a seq given twice and an id that runs backwards as out of order', () => {
    const twice = [five[0], five[1], five[2], { ...five[2], id: 135 }, five[3]];
    expect(verify(file(twice, signed)).problem).toMatchObject({ kind: 'order', line: 5, seq: 3 });
    const back = chain(3).map((r, i) => (i === 2 ? sealed({ ...r, id: 105 }) : r));
    expect(verify(file(back, head(back[2]))).problem).toMatchObject({ kind: 'order', line: 4, id: 105 });
    expect(verify(file(back, head(back[2]))).problem!.message).toContain('its id is not after record 120');
  });

  it('names a record rewritten with a new hash: the link of the next one breaks', () => {
    const rewritten = five.map((r) => (r.seq === 3 ? sealed({ ...r, actor: 'op9' }) : r));
    expect(verify(file(rewritten, signed)).problem).toMatchObject({ kind: 'link', line: 5, seq: 4 });
  });

  it('names the signed head when the chain was rewritten to its end, or records at its end were cut', () => {
    const end = five.map((r) => (r.seq === 5 ? sealed({ ...r, actor: 'op9' }) : r));
    expect(verify(file(end, signed)).problem).toMatchObject({ kind: 'head', line: null, id: 150 });
    const cut = five.slice(0, 4);
    const report = verify(file(cut, signed, { records: 4 }));
    expect(report.problem).toMatchObject({ kind: 'missing', line: null, seq: 5 });
    expect(report.problem!.message).toContain('the export ends at seq 4 but the signed head is seq 5');
    expect(verify(file([], signed, { records: 0 })).problem).toMatchObject({ kind: 'missing', seq: 5 });
  });

  it('refuses a head signed with another key, a head of another client, records without a head and records past it', () => {
    expect(verify(file(five, head(five[4], other.privateKey))).problem).toMatchObject({ kind: 'head', line: 1, seq: 5 });
    expect(verify(file(five, { ...signed, signedAt: '2026-12-01T09:00:00.001Z' })).problem).toMatchObject({ kind: 'head', line: 1 });
    expect(verify(file(five, head(five[4], keys.privateKey, 8))).problem).toMatchObject({ kind: 'head', line: 1 });
    expect(verify(file(five, head(five[4], keys.privateKey, 8))).problem!.message).toContain('of another client');
    expect(verify(file(five, null)).problem).toMatchObject({ kind: 'head', line: null });
    expect(verify(file(five, head(five[3]))).problem).toMatchObject({ kind: 'order', line: 6, seq: 5 });
  });

  it('refuses a file whose header counts other records than it holds', () => {
    expect(verify(file(five, signed, { records: 6 })).problem).toMatchObject({ kind: 'missing', line: null });
    expect(verify(file(five, signed, { records: 6 })).problem!.message).toBe('the header says 6 records, the file holds 5');
  });

  it('refuses what is not an export: no header, another format, a line that is not JSON', () => {
    expect(verify('').problem).toMatchObject({ kind: 'content', line: 1 });
    expect(verify('not json\n').problem!.message).toContain('no JSON header');
    expect(verify(file(five, signed, { format: 'other/1' })).problem).toMatchObject({ kind: 'content', line: 1 });
    const text = file(five, signed).split('\n');
    text[3] = '{ torn';
    expect(verify(text.join('\n')).problem).toMatchObject({ kind: 'content', line: 4, seq: null });
  });
});

describe('one record and a signed head, as the database check uses them', () => {
  const three = chain(3).map(link);
  it('a chain starts at seq 1 with no link, and each record links to the hash before it', () => {
    expect(checkLink(CLIENT, three[0], null)).toBeNull();
    expect(checkLink(CLIENT, three[1], three[0])).toBeNull();
    expect(checkLink(CLIENT, { ...three[0], prevHash: three[1].hash }, null)).toMatchObject({ kind: 'link', seq: 1 });
    expect(checkLink(CLIENT, three[1], null)).toMatchObject({ kind: 'missing', seq: 2 });
    expect(checkLink(null, three[0], three[0])).toMatchObject({ kind: 'order', clientId: null });
  });
  it('a head holds when its signature is the key’s and the chain still holds its record', () => {
    const rec = chain(3);
    const h = head(rec[1]);
    expect(checkHead(CLIENT, h, three[2], three[1], keys.publicKey)).toBeNull();
    expect(checkHead(CLIENT, h, three[2], three[1], null)).toBeNull();
    expect(checkHead(CLIENT, h, three[2], three[1], other.publicKey)).toMatchObject({ kind: 'head', id: three[1].id });
    expect(checkHead(CLIENT, h, three[0], null, keys.publicKey)).toMatchObject({ kind: 'missing', seq: 2 });
    expect(checkHead(CLIENT, h, null, null, keys.publicKey)!.message).toContain('the chain ends at seq 0');
    expect(checkHead(CLIENT, h, three[2], three[2], keys.publicKey)).toMatchObject({ kind: 'head', id: three[2].id });
    expect(checkHead(CLIENT, h, three[2], null, keys.publicKey)!.message).toContain('is not the one signed');
  });

  // the mutation run of 2026-12-03 (docs/TESTING.md): the boundaries of an id given twice and a head at the chain's
  // very end, and the sentences an auditor reads (they name the client, the record and the seq), had no test
  it('an id given twice is out of order; a head signed at the chain’s last record holds', () => {
    expect(checkLink(CLIENT, { ...three[1], id: three[0].id }, three[0])).toMatchObject({ kind: 'order', seq: 2 });
    const rec = chain(3);
    expect(checkHead(CLIENT, head(rec[2]), three[2], three[2], keys.publicKey)).toBeNull();
  });
  it('says each problem in words that name the client, the record and the seq', () => {
    const [a, b] = three;
    expect(checkLink(null, a, a)!.message).toBe(`record ${a.id} (client none, seq 1): out of order (seq 2 expected)`);
    expect(checkLink(CLIENT, b, null)!.message).toBe(`record ${b.id} (client 7, seq 2): record seq 1 is missing before it`);
    expect(checkLink(CLIENT, { ...b, id: a.id }, a)!.message).toBe(
      `record ${a.id} (client 7, seq 2): out of order (its id is not after record ${a.id}, seq 1)`,
    );
    expect(checkLink(CLIENT, { ...b, canonical: `${b.canonical} ` }, a)!.message).toBe(
      `record ${b.id} (client 7, seq 2): its content does not match its hash (changed after it was written)`,
    );
    expect(checkLink(CLIENT, { ...b, prevHash: b.hash }, a)!.message).toBe(
      `record ${b.id} (client 7, seq 2): its link does not match the hash of the record before it`,
    );
    const h = head(chain(3)[1]);
    const named = `the signed head of client 7 (seq 2, signed ${h.signedAt})`;
    expect(checkHead(CLIENT, h, three[2], three[1], other.publicKey)!.message).toBe(`${named}: its signature is not valid for this key`);
    expect(checkHead(CLIENT, h, three[0], null, keys.publicKey)!.message).toBe(`${named}: the chain ends at seq 1; records at its end were deleted`);
    expect(checkHead(CLIENT, h, three[2], three[2], keys.publicKey)!.message).toBe(`${named}: the record at seq 2 (id ${three[2].id}) is not the one signed`);
    expect(checkHead(null, { ...h, clientId: null } as SignedHead, three[2], null, null)!.message).toBe(
      `the signed head of client none (seq 2, signed ${h.signedAt}): the record at seq 2 is not the one signed`,
    );
  });
});
