// Divisions [0.4.9.0, or any identity privilege: the identity form picks one]: the client's tree, limited to
// the divisions the user's grants of those privileges cover (a grant of something else, visitors say, opens none).
import type { FastifyInstance } from 'fastify';
import { API, ListQuery, PRIV } from '../../contract';
import type { Db } from '../db/db';
import { divisionsOf } from '../db/queries/divisions';
import { clientOf, divisionsFor, principal, query } from './common';

export function divisionRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const codes = [PRIV.divisions.view, PRIV.identities.view, PRIV.identities.add, PRIV.identities.edit];
  app.get(API.divisions, { config: { privileges: codes } }, async (req) => {
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
