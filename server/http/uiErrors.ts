// The UI error log (§8): any signed-in console reports its uncaught errors; administrators read them [0.8.3.0].
import type { FastifyInstance } from 'fastify';
import { API, ListQuery, PRIV, Page, UiErrorReport } from '../../contract';
import type { Db } from '../db/db';
import { insertUiError, listUiErrors } from '../db/queries/uiErrors';
import { body, listParams, principal } from './kit';
import { iso } from '../db/values';
import { integer, string, type } from 'superstruct';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  report: { body: UiErrorReport, status: 201, response: type({ id: integer() }) },
  list: { query: ListQuery, response: Page(type({ id: integer(), message: string(), url: string() })) },
} satisfies Record<string, RouteDoc>;

export function uiErrorRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.post(API.uiErrors, { config: { touches: 'self', ...DOCS.report } }, async (req, reply) => {
    const p = principal(req);
    const input = body(req.body, UiErrorReport);
    const id = await insertUiError(db, {
      userId: p.userId,
      clientId: p.clientId,
      ...input,
      userAgent: input.userAgent ?? String(req.headers['user-agent'] ?? '').slice(0, 500),
    });
    return reply.code(201).send({ id });
  });

  app.get(API.uiErrors, { config: { privileges: [PRIV.errorLog], ...DOCS.list } }, async (req) => {
    const p = principal(req);
    const l = listParams(req.query, { at: 'at', id: 'id' }, 'id desc');
    const { rows, total } = await listUiErrors(db, p.clientId, p.userId, l);
    return {
      items: rows.map((r) => ({ id: r.id, message: r.message, stack: r.stack, url: r.url, userAgent: r.user_agent, at: iso(r.at)! })),
      total,
      page: l.page,
      size: l.size,
    };
  });
}
