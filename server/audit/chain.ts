// Issue 31: the tamper-evident audit trail. Every audit_log row is a link of its client's chain (rows of no client
// form one chain of their own): the database gives it its place (seq, from 1), the hash of the row before it
// (prev_hash) and the SHA-256 of its canonical content (hash) in a BEFORE INSERT trigger (migration 127), so every
// insert path is chained and two servers on one PostgreSQL take turns per client on a transaction advisory lock.
//
// Canonical content, version 1 (the text the hash is over, UTF-8): PostgreSQL's text of
//   jsonb_build_array('gatehouse-audit/1', id, client_id, seq, prev_hash, actor, action, entity, entity_id, before,
//                     after, at in UTC as YYYY-MM-DDTHH:MM:SS.ffffffZ)
// (the SQL function audit_canonical). hash = lower-case hex SHA-256 of it; prev_hash is null for a chain's first row.
//
// The chains' heads are signed now and then (and before each export) with the server's Ed25519 key, kept like the
// JWT secret: AUDIT_SIGNING_KEY (a PKCS#8 PEM) when given, else generated on first use and kept in the database.
// What is signed (UTF-8): HEAD_VERSION, the client id (or "none"), seq, hash and the signing time (ISO, UTC), one
// per line, as headMessage() writes them. The signed heads are kept in audit_heads.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../db/db';
import { aloneAmongServers } from '../db/maintenance';
import { keepSecret, secret } from '../db/queries/accounts';

export const CANONICAL_VERSION = 'gatehouse-audit/1';
export const HEAD_VERSION = 'gatehouse-audit-head/1';
export const EXPORT_FORMAT = 'gatehouse-audit-export/1';
/** How often the server signs the heads that moved. */
export const SIGN_EVERY_MS = 5 * 60_000;
const SECRET_NAME = 'audit-ed25519';
/** The chain key of a client id: rows of no client are chain -1. */
const chainOf = (clientId: number | null) => clientId ?? -1;
const clientOfChain = (chain: number) => (chain === -1 ? null : chain);

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

// ---------- the signing key ----------

/** The server's Ed25519 signing key: `given` (PKCS#8 PEM, AUDIT_SIGNING_KEY) or the one kept in the database. */
export async function auditSigningKey(db: Db, given?: string): Promise<KeyObject> {
  if (given) return createPrivateKey(given);
  const kept =
    (await secret(db, SECRET_NAME)) ??
    (await keepSecret(db, SECRET_NAME, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()));
  return createPrivateKey(kept);
}
/** The signing key, if one was given or kept already (the command line never makes one). */
export async function existingSigningKey(db: Db, given?: string): Promise<KeyObject | null> {
  if (given) return createPrivateKey(given);
  const kept = await secret(db, SECRET_NAME);
  return kept ? createPrivateKey(kept) : null;
}
export const publicKeyPem = (key: KeyObject) => createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();

// ---------- signed heads ----------

export interface SignedHead {
  clientId: number | null;
  seq: number;
  hash: string;
  signedAt: string;
  signature: string;
}

export const headMessage = (h: Omit<SignedHead, 'signature'>) => [HEAD_VERSION, h.clientId ?? 'none', h.seq, h.hash, h.signedAt].join('\n');
export function headSignatureValid(h: SignedHead, publicKey: KeyObject | string): boolean {
  try {
    return verify(null, Buffer.from(headMessage(h), 'utf8'), publicKey, Buffer.from(h.signature, 'base64'));
  } catch {
    return false;
  }
}

type HeadRow = { client_id: number | null; seq: string | number; hash: string; signed_at: Date | string; signature: string };
const headOf = (r: HeadRow): SignedHead => ({
  clientId: r.client_id === null ? null : Number(r.client_id),
  seq: Number(r.seq),
  hash: r.hash,
  signedAt: r.signed_at instanceof Date ? r.signed_at.toISOString() : new Date(r.signed_at).toISOString(),
  signature: r.signature,
});

export async function latestHead(db: Db, clientId: number | null): Promise<SignedHead | null> {
  const { rows } = await db.query<HeadRow>('select * from audit_heads where coalesce(client_id, -1) = $1 order by seq desc, id desc limit 1', [
    chainOf(clientId),
  ]);
  return rows[0] ? headOf(rows[0]) : null;
}

/**
 * Signs the head of each chain in `scope` (one client, or every chain) that moved since its last signed head;
 * answers the chains' latest signed heads. Signing a head needs no lock: two servers signing the same head both
 * write a true statement.
 */
export async function signHeads(db: Db, key: KeyObject, scope: { clientId: number | null } | 'all'): Promise<SignedHead[]> {
  const { rows } = await db.query<{ chain: number; seq: string; hash: string; signed: string | null }>(
    `select c.chain, a.seq::text, a.hash, (select max(h.seq)::text from audit_heads h where coalesce(h.client_id, -1) = c.chain) as signed
       from (select distinct coalesce(client_id, -1) as chain from audit_log ${scope === 'all' ? '' : 'where coalesce(client_id, -1) = $1'}) c
       join lateral (select seq, hash from audit_log where coalesce(client_id, -1) = c.chain order by seq desc limit 1) a on true`,
    scope === 'all' ? [] : [chainOf(scope.clientId)],
  );
  const out: SignedHead[] = [];
  for (const r of rows) {
    const clientId = clientOfChain(Number(r.chain));
    if (r.signed !== null && Number(r.signed) >= Number(r.seq)) {
      out.push((await latestHead(db, clientId))!);
      continue;
    }
    const head = { clientId, seq: Number(r.seq), hash: r.hash, signedAt: new Date().toISOString() };
    const signature = sign(null, Buffer.from(headMessage(head), 'utf8'), key).toString('base64');
    await db.query('insert into audit_heads (client_id, seq, hash, signed_at, signature) values ($1, $2, $3, $4, $5)', [
      clientId,
      head.seq,
      head.hash,
      head.signedAt,
      signature,
    ]);
    out.push({ ...head, signature });
  }
  return out;
}

/** Signs the heads that moved every `everyMs` (one server of several on one PostgreSQL at a time); the stop function. */
export function startHeadSigning(db: Db, key: () => Promise<KeyObject>, log: (m: string) => void, everyMs = SIGN_EVERY_MS): () => void {
  if (everyMs <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void key()
      .then((k) => aloneAmongServers(db, 'audit-sign', () => signHeads(db, k, 'all')))
      .catch((e) => log(`audit heads: ${(e as Error).message}`))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

// ---------- verifying the chains in the database ----------

export type ProblemKind = 'content' | 'link' | 'order' | 'missing' | 'head';
export interface ChainProblem {
  clientId: number | null;
  seq: number | null;
  id: number | null;
  kind: ProblemKind;
  message: string;
}
export interface VerifiedUpTo {
  seq: number;
  id: number;
  at: string;
}
export interface ChainReport {
  ok: boolean;
  chains: number;
  records: number;
  /** the single chain's last record checked (a one-client verify): where "verified up to" points */
  upTo: VerifiedUpTo | null;
  /** the single chain's latest signed head */
  head: SignedHead | null;
  problem: ChainProblem | null;
}

export interface LinkRecord {
  id: number;
  seq: number;
  prevHash: string | null;
  hash: string;
  canonical: string;
}
/** Checks one record against the one before it in its chain (null for the first); the problem, if any. */
export function checkLink(clientId: number | null, r: LinkRecord, before: LinkRecord | null): ChainProblem | null {
  const named = `record ${r.id} (client ${clientId ?? 'none'}, seq ${r.seq})`;
  const problem = (kind: ProblemKind, message: string): ChainProblem => ({ clientId, seq: r.seq, id: r.id, kind, message });
  const expected = before ? before.seq + 1 : 1;
  if (r.seq > expected)
    return problem(
      'missing',
      `${named}: ${r.seq - expected === 1 ? `record seq ${expected} is` : `records seq ${expected}–${r.seq - 1} are`} missing before it`,
    );
  if (r.seq !== expected) return problem('order', `${named}: out of order (seq ${expected} expected)`);
  if (before && r.id <= before.id) return problem('order', `${named}: out of order (its id is not after record ${before.id}, seq ${before.seq})`);
  if (sha256Hex(r.canonical) !== r.hash) return problem('content', `${named}: its content does not match its hash (changed after it was written)`);
  if ((r.prevHash ?? null) !== (before ? before.hash : null)) return problem('link', `${named}: its link does not match the hash of the record before it`);
  return null;
}
/** The signed head against the chain as read: its signature, and that the chain holds its record unchanged. */
export function checkHead(
  clientId: number | null,
  head: SignedHead,
  last: LinkRecord | null,
  atHead: LinkRecord | null,
  publicKey: KeyObject | string | null,
): ChainProblem | null {
  const named = `the signed head of client ${clientId ?? 'none'} (seq ${head.seq}, signed ${head.signedAt})`;
  const problem = (message: string): ChainProblem => ({ clientId, seq: head.seq, id: atHead?.id ?? null, kind: 'head', message });
  if (publicKey && !headSignatureValid(head, publicKey)) return problem(`${named}: its signature is not valid for this key`);
  if (!last || last.seq < head.seq)
    return { ...problem(`${named}: the chain ends at seq ${last?.seq ?? 0}; records at its end were deleted`), kind: 'missing' };
  if (!atHead || atHead.hash !== head.hash)
    return problem(`${named}: the record at seq ${head.seq}${atHead ? ` (id ${atHead.id})` : ''} is not the one signed`);
  return null;
}

const PAGE = 5000;
type ChainRow = { id: string | number; seq: string | number; prev_hash: string | null; hash: string; canonical: string; at: string };
/** The rows of one chain, by the indexes there are: (client_id, id) and, for rows of no client, (id) where client_id is null. */
const inChain = (clientId: number | null, from: number) =>
  clientId === null ? { where: 'client_id is null and id > $1', params: [from] } : { where: 'client_id = $1 and id > $2', params: [clientId, from] };

/**
 * Walks the chains of `scope` in the database (the client's chain, or every chain) in the order the rows were written
 * (id), stopping at the first problem: a seq out of its place, a record missing, a content that is not its hash, a
 * link that is not the hash before it, or a signed head the chain no longer holds.
 */
export async function verifyChains(db: Db, publicKey: KeyObject | string | null, scope: { clientId: number | null } | 'all'): Promise<ChainReport> {
  const chains =
    scope === 'all'
      ? (await db.query<{ chain: number }>('select distinct coalesce(client_id, -1) as chain from audit_log order by 1')).rows.map((r) => Number(r.chain))
      : [chainOf(scope.clientId)];
  if (scope === 'all') {
    // a chain whose every record was deleted still has its signed heads
    for (const r of (await db.query<{ chain: number }>('select distinct coalesce(client_id, -1) as chain from audit_heads')).rows)
      if (!chains.includes(Number(r.chain))) chains.push(Number(r.chain));
  }
  let records = 0;
  let upTo: VerifiedUpTo | null = null;
  let head: SignedHead | null = null;
  for (const chain of chains) {
    const clientId = clientOfChain(chain);
    head = await latestHead(db, clientId);
    let before: LinkRecord | null = null;
    let atHead: LinkRecord | null = null;
    upTo = null;
    for (let after = 0; ;) {
      const q = inChain(clientId, after);
      const { rows } = await db.query<ChainRow>(
        `select id, seq, prev_hash, hash, audit_canonical(a) as canonical, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at
           from audit_log a where ${q.where} order by id limit ${PAGE}`,
        q.params,
      );
      for (const row of rows) {
        const r: LinkRecord = { id: Number(row.id), seq: Number(row.seq), prevHash: row.prev_hash, hash: row.hash, canonical: row.canonical };
        let problem = checkLink(clientId, r, before);
        if (problem?.kind === 'missing') {
          // a seq skipped here may be further on (records moved) rather than gone
          const expected = (before?.seq ?? 0) + 1;
          const { rows: at } = await db.query<{ id: string }>('select id from audit_log where coalesce(client_id, -1) = $1 and seq = $2', [chain, expected]);
          if (at[0])
            problem = {
              ...problem,
              kind: 'order',
              message: `record ${r.id} (client ${clientId ?? 'none'}, seq ${r.seq}): out of order (seq ${expected} expected; that is record ${at[0].id}, written after it)`,
            };
        }
        if (problem) return { ok: false, chains: chains.length, records, upTo, head, problem };
        records++;
        if (head && r.seq === head.seq) atHead = r;
        before = r;
        upTo = { seq: r.seq, id: r.id, at: row.at };
      }
      if (rows.length < PAGE) break;
      after = before!.id;
    }
    const problem = head ? checkHead(clientId, head, before, atHead, publicKey) : null;
    if (problem) return { ok: false, chains: chains.length, records, upTo, head, problem };
  }
  return { ok: true, chains: chains.length, records, upTo: scope === 'all' ? null : upTo, head: scope === 'all' ? null : head, problem: null };
}

// ---------- the export: what the activity report hands an auditor ----------
//
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
    const { rows } = await db.query<{
      seq: string;
      id: string;
      at: string;
      actor: string;
      action: string;
      entity: string;
      entity_id: string | null;
      before: unknown;
      after: unknown;
      prev_hash: string | null;
      hash: string;
      canonical: string;
    }>(
      `select seq, id, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at, actor, action, entity, entity_id, before, after, prev_hash, hash,
         audit_canonical(a) as canonical
         from audit_log a where coalesce(client_id, -1) = $1 and seq > $2 and seq <= $3 order by seq limit ${PAGE}`,
      [chainOf(clientId), after, end],
    );
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
  problem: (ChainProblem & { line: number | null }) | null;
}

/**
 * Checks an export offline with the public key alone: the header, every record's hash, content and link, that the
 * records run from seq 1 to the signed head without a gap, and the head's signature.
 */
export function verifyExport(text: string, publicKey: KeyObject | string): ExportReport {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const fail = (
    line: number | null,
    p: Omit<ChainProblem, 'clientId'> & { clientId?: number | null },
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
