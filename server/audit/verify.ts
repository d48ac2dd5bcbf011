// Verifying the audit chains (server/audit/chain.ts): one record against the one before it, a signed head against the
// chain as read, and a walk of the chains in the database stopping at the first problem.
import type { KeyObject } from 'node:crypto';
import { fill, type Sentence } from '../../contract/messages';
import type { Db } from '../db/db';
import { chainOf, clientOfChain, headSignatureValid, latestHead, sha256Hex, type SignedHead } from './heads';
import { chainPage, chainsWithHeads, chainsWithRecords, recordIdAt } from '../db/queries/auditChain';

export type ProblemKind = 'content' | 'link' | 'order' | 'missing' | 'head';
export interface ChainProblem {
  clientId: number | null;
  seq: number | null;
  id: number | null;
  kind: ProblemKind;
  /** what is wrong, in English; with its sentence's key and values (issue 48: the console says it in the auditor's language) */
  message: string;
  code: string;
  values: Sentence['values'];
}
/** A problem the command line says in its own words (an export's or the witness's: `npm run audit`), without a key. */
export type ChainProblemText = Omit<ChainProblem, 'code' | 'values'>;
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
  const named = { record: r.id, client: clientId ?? 'none', seq: r.seq };
  const problem = (kind: ProblemKind, said: Sentence): ChainProblem => ({ clientId, seq: r.seq, id: r.id, kind, ...said });
  const expected = before ? before.seq + 1 : 1;
  if (r.seq > expected)
    return problem(
      'missing',
      r.seq - expected === 1
        ? fill('audit.recordMissing', 'record {record} (client {client}, seq {seq}): record seq {expected} is missing before it', { ...named, expected })
        : fill('audit.recordsMissing', 'record {record} (client {client}, seq {seq}): records seq {expected}–{last} are missing before it', {
            ...named,
            expected,
            last: r.seq - 1,
          }),
    );
  if (r.seq !== expected)
    return problem(
      'order',
      fill('audit.outOfOrder', 'record {record} (client {client}, seq {seq}): out of order (seq {expected} expected)', { ...named, expected }),
    );
  if (before && r.id <= before.id)
    return problem(
      'order',
      fill('audit.idNotAfter', 'record {record} (client {client}, seq {seq}): out of order (its id is not after record {before}, seq {beforeSeq})', {
        ...named,
        before: before.id,
        beforeSeq: before.seq,
      }),
    );
  if (sha256Hex(r.canonical) !== r.hash)
    return problem(
      'content',
      fill('audit.contentChanged', 'record {record} (client {client}, seq {seq}): its content does not match its hash (changed after it was written)', named),
    );
  if ((r.prevHash ?? null) !== (before ? before.hash : null))
    return problem(
      'link',
      fill('audit.linkBroken', 'record {record} (client {client}, seq {seq}): its link does not match the hash of the record before it', named),
    );
  return null;
}
/** A record found further on than its seq's place: written after the record that follows it. */
export function writtenLater(clientId: number | null, r: LinkRecord, expected: number, at: number): ChainProblem {
  return {
    clientId,
    seq: r.seq,
    id: r.id,
    kind: 'order',
    ...fill(
      'audit.writtenLater',
      'record {record} (client {client}, seq {seq}): out of order (seq {expected} expected; that is record {at}, written after it)',
      {
        record: r.id,
        client: clientId ?? 'none',
        seq: r.seq,
        expected,
        at,
      },
    ),
  };
}
/** The signed head against the chain as read: its signature, and that the chain holds its record unchanged. */
export function checkHead(
  clientId: number | null,
  head: SignedHead,
  last: LinkRecord | null,
  atHead: LinkRecord | null,
  publicKey: KeyObject | string | null,
): ChainProblem | null {
  const named = { client: clientId ?? 'none', seq: head.seq, signedAt: head.signedAt };
  const problem = (said: Sentence): ChainProblem => ({ clientId, seq: head.seq, id: atHead?.id ?? null, kind: 'head', ...said });
  if (publicKey && !headSignatureValid(head, publicKey))
    return problem(
      fill('audit.headSignatureInvalid', 'the signed head of client {client} (seq {seq}, signed {signedAt}): its signature is not valid for this key', named),
    );
  if (!last || last.seq < head.seq)
    return {
      ...problem(
        fill(
          'audit.headChainEnds',
          'the signed head of client {client} (seq {seq}, signed {signedAt}): the chain ends at seq {last}; records at its end were deleted',
          { ...named, last: last?.seq ?? 0 },
        ),
      ),
      kind: 'missing',
    };
  if (!atHead || atHead.hash !== head.hash)
    return problem(
      atHead
        ? fill(
            'audit.headRecordNotSigned',
            'the signed head of client {client} (seq {seq}, signed {signedAt}): the record at seq {seq} (id {id}) is not the one signed',
            { ...named, id: atHead.id },
          )
        : fill('audit.headNoRecord', 'the signed head of client {client} (seq {seq}, signed {signedAt}): the record at seq {seq} is not the one signed', named),
    );
  return null;
}

export const PAGE = 5000;

/**
 * Walks the chains of `scope` in the database (the client's chain, or every chain) in the order the rows were written
 * (id), stopping at the first problem: a seq out of its place, a record missing, a content that is not its hash, a
 * link that is not the hash before it, or a signed head the chain no longer holds.
 */
export async function verifyChains(db: Db, publicKey: KeyObject | string | null, scope: { clientId: number | null } | 'all'): Promise<ChainReport> {
  const chains = scope === 'all' ? await chainsWithRecords(db) : [chainOf(scope.clientId)];
  if (scope === 'all') {
    // a chain whose every record was deleted still has its signed heads
    for (const c of await chainsWithHeads(db)) if (!chains.includes(c)) chains.push(c);
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
      const rows = await chainPage(db, clientId, after, PAGE);
      for (const row of rows) {
        const r: LinkRecord = { id: Number(row.id), seq: Number(row.seq), prevHash: row.prev_hash, hash: row.hash, canonical: row.canonical };
        let problem = checkLink(clientId, r, before);
        if (problem?.kind === 'missing') {
          // a seq skipped here may be further on (records moved) rather than gone
          const expected = (before?.seq ?? 0) + 1;
          const at = await recordIdAt(db, chain, expected);
          if (at !== undefined) problem = writtenLater(clientId, r, expected, Number(at));
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
