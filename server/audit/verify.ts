// Verifying the audit chains (server/audit/chain.ts): one record against the one before it, a signed head against the
// chain as read, and a walk of the chains in the database stopping at the first problem.
import type { KeyObject } from 'node:crypto';
import type { Db } from '../db/db';
import { chainOf, clientOfChain, headSignatureValid, latestHead, sha256Hex, type SignedHead } from './heads';
import { chainPage, chainsWithHeads, chainsWithRecords, recordIdAt } from '../db/queries/auditChain';

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
          if (at !== undefined)
            problem = {
              ...problem,
              kind: 'order',
              message: `record ${r.id} (client ${clientId ?? 'none'}, seq ${r.seq}): out of order (seq ${expected} expected; that is record ${at}, written after it)`,
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
