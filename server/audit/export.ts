// The export of an audit chain and its offline check (server/audit/chain.ts): what the activity report hands an
// auditor, and what `npm run audit -- verify-export` checks it with.
import type { KeyObject } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../db/db';
import { exportPage } from '../db/queries/auditChain';
import { CANONICAL_VERSION, EXPORT_FORMAT, chainOf, headSignatureValid, publicKeyPem, signHeads, type SignedHead } from './heads';
import { PAGE, checkLink, type ChainProblemText, type LinkRecord } from './verify';

// Format gatehouse-audit-export/1: NDJSON (one JSON object per line, UTF-8). Line 1, the header:
//   { format, clientId, exportedAt, records, publicKey (PEM, for information: check with a key you trust), head }
// where head is the chain's signed head (SignedHead) the export ends at, or null for an empty chain. Then one line
// per record, seq 1 to head.seq in order:
//   { seq, id, at, actor, action, entity, entityId, before, after, prevHash, hash, canonical }
// canonical is the canonical content the hash is over; the readable fields must say the same.

export interface ExportHeader {
  format: string;
  clientId: number | null;
  exportedAt: string;
  records: number;
  publicKey: string;
  head: SignedHead | null;
}
export interface ExportRecord {
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

/** The export of one client's chain, up to its head (signed now if it moved), as lines of NDJSON. */
export async function* exportChain(db: Db, key: KeyObject, clientId: number | null): AsyncGenerator<string> {
  const [head] = await signHeads(db, key, { clientId });
  const end = head?.seq ?? 0;
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    clientId,
    exportedAt: new Date().toISOString(),
    records: end,
    publicKey: publicKeyPem(key),
    head: head ?? null,
  };
  yield JSON.stringify(header) + '\n';
  for (let after = 0; after < end;) {
    const rows = await exportPage(db, chainOf(clientId), after, end, PAGE);
    if (!rows.length) break;
    let text = '';
    for (const r of rows) {
      const rec: ExportRecord = {
        seq: Number(r.seq),
        id: Number(r.id),
        at: r.at,
        actor: r.actor,
        action: r.action,
        entity: r.entity,
        entityId: r.entity_id,
        before: r.before,
        after: r.after,
        prevHash: r.prev_hash,
        hash: r.hash,
        canonical: r.canonical,
      };
      text += JSON.stringify(rec) + '\n';
    }
    yield text;
    after = Number(rows[rows.length - 1].seq);
  }
}

export interface ExportReport {
  ok: boolean;
  records: number;
  head: SignedHead | null;
  /** the first problem, in English with its line (the command line's own words: `npm run audit -- verify-export`) */
  problem: (ExportProblem & { line: number | null }) | null;
}
type ExportProblem = ChainProblemText;

/**
 * Checks an export offline with the public key alone: the header, every record's hash, content and link, that the
 * records run from seq 1 to the signed head without a gap, and the head's signature.
 */
export function verifyExport(text: string, publicKey: KeyObject | string): ExportReport {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const fail = (
    line: number | null,
    p: Omit<ExportProblem, 'clientId'> & { clientId?: number | null },
    records: number,
    head: SignedHead | null,
  ): ExportReport => ({ ok: false, records, head, problem: { clientId: p.clientId ?? null, seq: p.seq, id: p.id, kind: p.kind, message: p.message, line } });
  let header: ExportHeader;
  try {
    header = JSON.parse(lines[0] ?? '');
  } catch {
    return fail(1, { seq: null, id: null, kind: 'content', message: 'line 1: not a gatehouse audit export (no JSON header)' }, 0, null);
  }
  if (header?.format !== EXPORT_FORMAT) return fail(1, { seq: null, id: null, kind: 'content', message: `line 1: not a ${EXPORT_FORMAT} file` }, 0, null);
  const clientId = header.clientId ?? null;
  const head = header.head ?? null;
  if (head && (head.clientId ?? null) !== clientId)
    return fail(1, { clientId, seq: head.seq, id: null, kind: 'head', message: 'line 1: the signed head is of another client' }, 0, head);
  if (head && !headSignatureValid(head, publicKey))
    return fail(
      1,
      {
        clientId,
        seq: head.seq,
        id: null,
        kind: 'head',
        message: `line 1: the signed head (seq ${head.seq}, signed ${head.signedAt}) has no valid signature for this key`,
      },
      0,
      head,
    );
  let before: LinkRecord | null = null;
  let records = 0;
  for (let i = 1; i < lines.length; i++) {
    let rec: ExportRecord;
    try {
      rec = JSON.parse(lines[i]);
    } catch {
      return fail(i + 1, { clientId, seq: null, id: null, kind: 'content', message: `line ${i + 1}: not JSON` }, records, head);
    }
    const r: LinkRecord = {
      id: Number(rec.id),
      seq: Number(rec.seq),
      prevHash: rec.prevHash ?? null,
      hash: String(rec.hash),
      canonical: String(rec.canonical),
    };
    let problem = checkLink(clientId, r, before);
    if (problem?.kind === 'missing') {
      // a seq skipped here may be further on (lines moved) rather than gone
      const expected = (before?.seq ?? 0) + 1;
      const later = lines.slice(i + 1).findIndex((l) => {
        try {
          return Number(JSON.parse(l).seq) === expected;
        } catch {
          return false;
        }
      });
      if (later >= 0)
        problem = {
          ...problem,
          kind: 'order',
          message: `record ${r.id} (client ${clientId ?? 'none'}, seq ${r.seq}): out of order (seq ${expected} expected; it is on line ${i + 2 + later})`,
        };
    }
    if (problem) return fail(i + 1, { ...problem, message: `line ${i + 1}: ${problem.message}` }, records, head);
    let said: unknown;
    try {
      said = JSON.parse(r.canonical);
    } catch {
      said = null;
    }
    const shown = [
      CANONICAL_VERSION,
      r.id,
      clientId,
      r.seq,
      r.prevHash,
      rec.actor,
      rec.action,
      rec.entity,
      rec.entityId ?? null,
      rec.before ?? null,
      rec.after ?? null,
      rec.at,
    ];
    if (!isDeepStrictEqual(said, shown))
      return fail(
        i + 1,
        {
          clientId,
          seq: r.seq,
          id: r.id,
          kind: 'content',
          message: `line ${i + 1}: record ${r.id} (seq ${r.seq}): its fields do not say what its hashed content says`,
        },
        records,
        head,
      );
    before = r;
    records++;
    if (head && r.seq > head.seq)
      return fail(
        i + 1,
        { clientId, seq: r.seq, id: r.id, kind: 'order', message: `line ${i + 1}: record ${r.id} (seq ${r.seq}) is past the signed head (seq ${head.seq})` },
        records,
        head,
      );
  }
  if (head) {
    const last = before;
    if (!last || last.seq < head.seq)
      return fail(
        null,
        {
          clientId,
          seq: head.seq,
          id: null,
          kind: 'missing',
          message: `the export ends at seq ${last?.seq ?? 0} but the signed head is seq ${head.seq}: records at its end are missing`,
        },
        records,
        head,
      );
    if (last.hash !== head.hash)
      return fail(
        null,
        { clientId, seq: head.seq, id: last.id, kind: 'head', message: `record ${last.id} (seq ${last.seq}) is not the record the head signed` },
        records,
        head,
      );
  } else if (records > 0) {
    return fail(null, { clientId, seq: null, id: null, kind: 'head', message: 'the export has records but no signed head' }, records, head);
  }
  if (records !== header.records)
    return fail(
      null,
      { clientId, seq: null, id: null, kind: 'missing', message: `the header says ${header.records} records, the file holds ${records}` },
      records,
      head,
    );
  return { ok: true, records, head, problem: null };
}
