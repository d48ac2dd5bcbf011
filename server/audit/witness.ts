// Issue 45: the signed heads leave the database. A head signed in the database proves nothing about records cut
// after it, nor about a chain cut together with its heads; so each head, as soon as it is signed, is also written to
// a witness the installation keeps apart (AUDIT_WITNESS_DIR, a directory outside DATA_DIR, on another disk or a
// mount the database's host cannot rewrite), the way Certificate Transparency publishes signed tree heads and
// CloudTrail delivers its digest files elsewhere. `npm run audit -- verify --witness DIR` then holds the database to
// every head it witnessed: a chain shorter than, or different from, what was witnessed fails, naming the client and
// the last witnessed record.
//
// The witness is one append-only file per chain, `client-<id>.ndjson` (`client-none.ndjson` for rows of no client),
// one signed head a line (the same fields as audit_heads), each line written with O_APPEND and fsync'd.
import { appendFileSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { Db } from '../db/db';
import { lastSeq, recordsAt } from '../db/queries/auditChain';
import { chainOf, headSignatureValid, type SignedHead } from './heads';
import type { ChainProblemText } from './verify';

const FILE = /^client-(none|[1-9][0-9]{0,9})\.ndjson$/;
export const witnessFile = (clientId: number | null) => `client-${clientId ?? 'none'}.ndjson`;

/** Why `dir` cannot be the witness of a database in `dataDir` (inside it, or it), or null. */
export function witnessDirProblem(dir: string, dataDir: string | null): string | null {
  if (!dataDir) return null;
  const rel = relative(resolve(dataDir), resolve(dir));
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel)))
    return `AUDIT_WITNESS_DIR (${dir}) is inside DATA_DIR (${dataDir}): a witness must be kept apart from the database it witnesses`;
  return null;
}

export interface Witness {
  /** Writes the heads it has not written yet; never throws (a witness that cannot be written is logged). */
  record(heads: SignedHead[]): void;
  /** The last head witnessed of a client's chain (the activity report shows it), or null. */
  latest(clientId: number | null): SignedHead | null;
  readonly dir: string;
}

/** The directory witness: appends each new head to its chain's file, fsync'd before the call returns. */
export function directoryWitness(dir: string, log: (m: string) => void): Witness {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const last = new Map<number, SignedHead>(); // chain → the head last written
  for (const [clientId, heads] of readWitness(dir).chains) {
    const h = heads.at(-1);
    if (h) last.set(chainOf(clientId), h);
  }
  return {
    dir,
    latest: (clientId) => last.get(chainOf(clientId)) ?? null,
    record(heads) {
      for (const h of heads) {
        const chain = chainOf(h.clientId);
        const before = last.get(chain);
        if (before && before.seq === h.seq && before.hash === h.hash) continue;
        try {
          const file = join(dir, witnessFile(h.clientId));
          appendFileSync(file, `${JSON.stringify(h)}\n`, { mode: 0o600 });
          const fd = openSync(file, 'r');
          try {
            fsyncSync(fd);
          } finally {
            closeSync(fd);
          }
          last.set(chain, h);
        } catch (e) {
          log(`audit witness: cannot write ${dir}: ${(e as Error).message}`);
        }
      }
    },
  };
}

export interface WitnessRead {
  chains: Map<number | null, SignedHead[]>;
  /** lines that are not a signed head (named by file and line) */
  malformed: string[];
}
/** Every head a witness directory holds, per chain in the order written. */
export function readWitness(dir: string): WitnessRead {
  const chains = new Map<number | null, SignedHead[]>();
  const malformed: string[] = [];
  if (!existsSync(dir)) return { chains, malformed };
  for (const name of readdirSync(dir).sort()) {
    const m = FILE.exec(name);
    if (!m) continue;
    const clientId = m[1] === 'none' ? null : Number(m[1]);
    const heads: SignedHead[] = [];
    readFileSync(join(dir, name), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.trim()) return;
        try {
          const h = JSON.parse(line) as SignedHead;
          if (
            h.clientId !== clientId ||
            !Number.isSafeInteger(h.seq) ||
            h.seq < 1 ||
            typeof h.hash !== 'string' ||
            typeof h.signedAt !== 'string' ||
            typeof h.signature !== 'string'
          )
            throw new Error('not a head');
          heads.push(h);
        } catch {
          malformed.push(`${name} line ${i + 1}`);
        }
      });
    chains.set(clientId, heads);
  }
  return { chains, malformed };
}

export interface WitnessReport {
  ok: boolean;
  /** heads compared */
  heads: number;
  chains: number;
  /** the first problem, in the command line's words (`npm run audit -- verify --witness`) */
  problem: ChainProblemText | null;
}

/**
 * Holds the database to every head the witness holds: each must be signed by `publicKey` (when known), and the
 * database's chain must still hold that record, with that hash (a chain cut after it, cut with its heads, or rewritten
 * from a point before it fails). Names the client and the last witnessed record.
 */
export async function verifyAgainstWitness(db: Db, publicKey: KeyObject | string | null, dir: string): Promise<WitnessReport> {
  const { chains, malformed } = readWitness(dir);
  let compared = 0;
  const fail = (problem: ChainProblemText): WitnessReport => ({ ok: false, heads: compared, chains: chains.size, problem });
  if (malformed.length)
    return fail({
      clientId: null,
      seq: null,
      id: null,
      kind: 'head',
      message: `the witness has lines that are not signed heads: ${malformed.slice(0, 5).join(', ')}`,
    });
  for (const [clientId, heads] of chains) {
    if (!heads.length) continue;
    const lastWitnessed = heads.at(-1)!;
    const named = `client ${clientId ?? 'none'}: the last witnessed record is seq ${lastWitnessed.seq} (hash ${lastWitnessed.hash.slice(0, 16)}…, signed ${lastWitnessed.signedAt})`;
    const dbLast = await lastSeq(db, chainOf(clientId));
    if (dbLast < lastWitnessed.seq)
      return fail({
        clientId,
        seq: lastWitnessed.seq,
        id: null,
        kind: 'missing',
        message: `${named}; the chain in the database ends at seq ${dbLast}: records witnessed were deleted`,
      });
    const seqs = heads.map((h) => h.seq);
    const rows = await recordsAt(db, chainOf(clientId), seqs);
    const held = new Map(rows.map((r) => [Number(r.seq), r]));
    for (const h of heads) {
      compared++;
      if (publicKey && !headSignatureValid(h, publicKey))
        return fail({ clientId, seq: h.seq, id: null, kind: 'head', message: `${named}; the witnessed head of seq ${h.seq} is not signed by this key` });
      const r = held.get(h.seq);
      if (!r) return fail({ clientId, seq: h.seq, id: null, kind: 'missing', message: `${named}; the witnessed record seq ${h.seq} is not in the database` });
      if (r.hash !== h.hash)
        return fail({
          clientId,
          seq: h.seq,
          id: Number(r.id),
          kind: 'head',
          message: `${named}; the record at seq ${h.seq} (id ${r.id}) differs from the one witnessed: the chain was rewritten`,
        });
    }
  }
  return { ok: true, heads: compared, chains: chains.size, problem: null };
}
