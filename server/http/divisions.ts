// Divisions [0.4.9.0, or a privilege of a form that picks one]: the client's whole visible tree at once (the
// Divisions screen and every form's division picker), limited to the divisions the user's grants of those privileges
// cover (a grant of something else, visitors say, opens none). Everything else about divisions is the catalogue's
// (contract/resources/divisions.ts: get, add, edit, delete, options, export).
import type { FastifyInstance } from 'fastify';
import { API, Division, ListQuery, PRIV, Page, divisionsResource } from '../../contract';
import { optionCodesOf } from '../crud/plugin';
import type { Db } from '../db/db';
import { divisionsOf } from '../db/queries/divisions';
import { clientOf, divisionsFor, principal, query } from './kit';
import type { RouteDoc } from '../openapi/declared';

/** What each route validates and answers: the contract's structs, for the API description (server/openapi). */
const DOCS = {
  tree: { query: ListQuery, response: Page(Division), summary: 'The divisions the caller may see' },
} satisfies Record<string, RouteDoc>;

export function divisionRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const codes = [...new Set([PRIV.divisions.view, PRIV.identities.view, ...optionCodesOf(divisionsResource)])];
  app.get(API.divisions, { config: { privileges: codes, ...DOCS.tree } }, async (req) => {
    const clientId = clientOf(req);
    const f = query(req.query, ListQuery);
    const allowed = new Set(divisionsFor(principal(req), codes));
    const needle = f.q?.trim().toLowerCase();
    const items = (await divisionsOf(db, clientId))
      .filter((r) => allowed.has(r.id) && (!needle || r.name.toLowerCase().includes(needle)))
      .map((r) => ({ id: r.id, clientId: r.client_id, name: r.name, parentId: r.parent_id }));
    return { items, total: items.length, page: 0, size: items.length };
  });
}
