// The activity report [0.6.1.0]: the client's audit trail, newest first unless sorted otherwise.
import type { FastifyInstance } from 'fastify';
import { API, AuditEntry, ListQuery, PRIV, Page } from '../../contract';
import type { Db } from '../db/db';
import { AUDIT_SORT, actorNames, auditEntryOf, listAudit } from '../db/queries/audit';
import { clientOf, listParams } from './kit';
import { auditChainRoutes, type AuditHeadSigning } from '../audit/routes';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  list: { query: ListQuery, response: Page(AuditEntry), summary: 'The activity report' },
} satisfies Record<string, RouteDoc>;

export function auditRoutes(app: FastifyInstance, { db, heads }: { db: Db; heads: AuditHeadSigning }) {
  app.get(API.audit, { config: { privileges: [PRIV.activityReport], ...DOCS.list } }, async (req) => {
    const clientId = clientOf(req);
    const l = listParams(req.query, AUDIT_SORT, 'id desc');
    const { rows, total } = await listAudit(db, clientId, l);
    const names = await actorNames(
      db,
      rows.map((r) => r.actor),
    );
    const items: AuditEntry[] = rows.map((r) => auditEntryOf(r, names));
    return { items, total, page: l.page, size: l.size };
  });
  // issue 31: the tamper-evident chain behind the report (verify, verifiable export, public key)
  auditChainRoutes(app, { db, heads });
}
