// The audit row of an operator's change made through a request: who (the request's principal, or the given actor),
// what and to which record. server/db/queries/audit.ts writes it; the database links it into its client's chain
// (server/audit/chain.ts). Call it inside the change's transaction.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/db';
import { insertAudit, type AuditFields } from '../db/queries/audit';

/** The audit row of an operator's change; call it inside the change's transaction. */
export async function audit(db: Db, req: FastifyRequest, a: Omit<AuditFields, 'actor'> & { actor?: string }) {
  await insertAudit(db, { ...a, actor: a.actor ?? req.principal?.username ?? 'anonymous' });
}
