// Issue 31: the audit chain over HTTP, beside the activity report [0.6.1.0] and with its privilege.
//   GET /event/manage/audit/verify      the caller's client's chain walked now: records checked, verified up to, problem
//   GET /event/manage/audit/export      the chain as a verifiable file (server/audit/chain.ts: gatehouse-audit-export/1)
//   GET /event/manage/audit/public-key  the key the heads are signed with (open: it is public)
// The heads that moved are signed every SIGN_EVERY_MS (one server of several at a time), and before each export.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { KeyObject } from 'node:crypto';
import { API, PRIV } from '../../contract';
import type { Db } from '../db/db';
import { clientOf } from '../http/kit';
import { audit } from './trail';
import { auditSigningKey, exportChain, publicKeyPem, startHeadSigning, verifyChains, type ChainReport, type HeadSigning, type SignedHead } from './chain';
import { directoryWitness } from './witness';

declare module 'fastify' {
  interface FastifyInstance {
    /** the audit heads' signing (issue 45): sign what moved now; the last head witnessed of a client */
    auditHeads: { flush(): Promise<void>; stop(): void; witnessed(clientId: number | null): SignedHead | null };
  }
}

export const AUDIT_VERIFY_PATH = `${API.audit}/verify`;
export const AUDIT_EXPORT_PATH = `${API.audit}/export`;
export const AUDIT_PUBLIC_KEY_PATH = `${API.audit}/public-key`;

/** The audit heads' signing, one per server: the signing key, the timed signer and its witness (server/app.ts makes it at the root). */
export interface AuditHeadSigning {
  signingKey(): Promise<KeyObject>;
  witnessed(clientId: number | null): SignedHead | null;
  witnessing: boolean;
}

/**
 * Starts the heads' signing with the server (its key made before the server answers anything) and signs what moved
 * before it stops; `app.auditHeads` is the handle tests hold. Added at the server's root: the signer is the server's,
 * not a route group's.
 */
export function auditHeadSigning(
  app: FastifyInstance,
  { db, signEveryMs, witnessDir = null }: { db: Db; signEveryMs?: number; witnessDir?: string | null },
): AuditHeadSigning {
  const witness = witnessDir ? directoryWitness(witnessDir, (m) => app.log.error(m)) : null;
  let key: Promise<KeyObject> | null = null;
  // kept like the JWT secret: AUDIT_SIGNING_KEY, else generated once and kept in the database
  const signingKey = () =>
    (key ??= auditSigningKey(db, process.env.AUDIT_SIGNING_KEY || undefined).catch((e) => {
      key = null;
      throw e;
    }));
  let signing: HeadSigning | null = null;
  app.addHook('onReady', async () => {
    // the signing key made (and kept) before the server answers anything: the signer's first look uses it at once, and
    // made lazily it was a write of its own in the middle of whatever request came first
    await signingKey();
    signing = startHeadSigning(db, signingKey, (m) => app.log.warn(m), signEveryMs, witness ? (heads) => witness.record(heads) : null);
  });
  // the last writes are signed (and witnessed) before the server stops: a server that never ran long signs too
  app.addHook('preClose', async () => {
    signing?.stop();
    await signing?.flush();
  });
  const witnessed = (clientId: number | null) => witness?.latest(clientId) ?? null;
  app.decorate('auditHeads', {
    flush: async () => {
      await signing?.flush();
    },
    /** No more timed signing (tests that hold the trail cut on a live server); the close still signs what moved. */
    stop: () => signing?.stop(),
    witnessed,
  });
  return { signingKey, witnessed, witnessing: witness !== null };
}

/** The chain's routes (verify, verifiable export, public key), with the server's head signing. */
export function auditChainRoutes(app: FastifyInstance, { db, heads }: { db: Db; heads: AuditHeadSigning }) {
  const { signingKey } = heads;
  // JSON for the console; the PEM itself (what `npm run audit -- verify-export --key` reads) for `Accept:
  // application/x-pem-file` or `?format=pem`, as a file to save (issue 45: saved as JSON it read as a wrong key)
  app.get(AUDIT_PUBLIC_KEY_PATH, { config: { open: true } }, async (req, reply) => {
    const pem = publicKeyPem(await signingKey());
    const q = req.query as { format?: unknown };
    if (q.format === 'pem' || /application\/x-pem-file/.test(String(req.headers.accept ?? ''))) {
      return reply
        .header('content-type', 'application/x-pem-file')
        .header('content-disposition', 'attachment; filename="gatehouse-audit-public.pem"')
        .send(pem);
    }
    return { algorithm: 'Ed25519', publicKey: pem };
  });

  app.get(
    AUDIT_VERIFY_PATH,
    { config: { privileges: [PRIV.activityReport] } },
    async (req): Promise<ChainReport & { witnessed: SignedHead | null; witnessing: boolean }> => {
      const clientId = clientOf(req);
      // the last head that left the database for the witness (null: no witness configured, or none yet)
      return { ...(await verifyChains(db, await signingKey(), { clientId })), witnessed: heads.witnessed(clientId), witnessing: heads.witnessing };
    },
  );

  app.get(AUDIT_EXPORT_PATH, { config: { privileges: [PRIV.activityReport] } }, async (req, reply) => {
    const clientId = clientOf(req);
    const k = await signingKey();
    // the export is itself in the trail, and in the file (its head is signed after it)
    await audit(db, req, { clientId, action: 'export', entity: 'audit', entityId: null, before: null, after: null });
    const day = new Date().toISOString().slice(0, 10);
    reply
      .header('content-type', 'application/x-ndjson; charset=utf-8')
      .header('content-disposition', `attachment; filename="audit-client-${clientId}-${day}.ndjson"`);
    return reply.send(Readable.from(exportChain(db, k, clientId), { objectMode: true, highWaterMark: 1 }));
  });
}
