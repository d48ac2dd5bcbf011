// The audit chains' signed heads (server/audit/chain.ts): the server's Ed25519 signing key, what a head says and its
// signature, signing the heads that moved (now and then, and before each export).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { Db } from '../db/db';
import * as chain from '../db/queries/auditChain';
import type { HeadRow } from '../db/queries/auditChain';
import { aloneAmongServers } from '../db/maintenance';
import { keepSecret, secret } from '../db/queries/accounts';

export const CANONICAL_VERSION = 'gatehouse-audit/1';
export const HEAD_VERSION = 'gatehouse-audit-head/1';
export const EXPORT_FORMAT = 'gatehouse-audit-export/1';
/**
 * How often the server looks whether the audit log moved (one read of its newest id); the heads that moved are then
 * signed (issue 45: within seconds of the last write, not every five minutes of uptime) and given to the witness.
 */
export const SIGN_EVERY_MS = 2_000;
const SECRET_NAME = 'audit-ed25519';
/** The chain key of a client id: rows of no client are chain -1. */
export const chainOf = (clientId: number | null) => clientId ?? -1;
export const clientOfChain = (chain: number) => (chain === -1 ? null : chain);

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

const headOf = (r: HeadRow): SignedHead => ({
  clientId: r.client_id === null ? null : Number(r.client_id),
  seq: Number(r.seq),
  hash: r.hash,
  signedAt: r.signed_at instanceof Date ? r.signed_at.toISOString() : new Date(r.signed_at).toISOString(),
  signature: r.signature,
});

export async function latestHead(db: Db, clientId: number | null): Promise<SignedHead | null> {
  const row = await chain.latestHeadRow(db, chainOf(clientId));
  return row ? headOf(row) : null;
}

/**
 * Signs the head of each chain in `scope` (one client, or every chain) that moved since its last signed head;
 * answers the chains' latest signed heads. Signing a head needs no lock: two servers signing the same head both
 * write a true statement.
 */
export async function signHeads(db: Db, key: KeyObject, scope: { clientId: number | null } | 'all'): Promise<SignedHead[]> {
  // every chain's newest record by the chain index (one lookup per client, not a scan of the log)
  const rows = await chain.chainTops(db, scope === 'all' ? null : chainOf(scope.clientId));
  const out: SignedHead[] = [];
  for (const r of rows) {
    const clientId = clientOfChain(Number(r.chain));
    if (r.signed !== null && Number(r.signed) >= Number(r.seq)) {
      out.push((await latestHead(db, clientId))!);
      continue;
    }
    const head = { clientId, seq: Number(r.seq), hash: r.hash, signedAt: new Date().toISOString() };
    const signature = sign(null, Buffer.from(headMessage(head), 'utf8'), key).toString('base64');
    await chain.insertHead(db, { ...head, signature });
    out.push({ ...head, signature });
  }
  return out;
}

export interface HeadSigning {
  /** Signs what moved now and hands it to the witness (at shutdown, and in tests). */
  flush(): Promise<void>;
  stop(): void;
}

/**
 * Looks every `everyMs` whether the audit log moved (its newest id); when it did, signs the heads that moved (one
 * server of several on one PostgreSQL at a time) and hands every signed head to `witness` (server/audit/witness.ts).
 * The first look signs every chain that moved since its last signed head.
 */
export function startHeadSigning(
  db: Db,
  key: () => Promise<KeyObject>,
  log: (m: string) => void,
  everyMs = SIGN_EVERY_MS,
  witness: ((heads: SignedHead[]) => void) | null = null,
): HeadSigning {
  let seen = -1; // the newest audit_log id signed up to; -1: nothing yet (the first look signs every chain)
  let running: Promise<void> | null = null;
  const pass = async () => {
    const newest = await chain.newestAuditId(db);
    if (newest === seen) return;
    const k = await key();
    const heads = await aloneAmongServers(db, 'audit-sign', () => signHeads(db, k, 'all'));
    if (heads === null) return; // another server signs now; looked at again next time
    seen = newest;
    witness?.(heads);
  };
  const run = () =>
    (running ??= pass()
      .catch((e) => log(`audit heads: ${(e as Error).message}`))
      .finally(() => {
        running = null;
      }));
  const timer = everyMs > 0 ? setInterval(() => void run(), everyMs) : null;
  timer?.unref();
  return {
    async flush() {
      await running;
      await run();
    },
    stop: () => {
      if (timer) clearInterval(timer);
    },
  };
}
