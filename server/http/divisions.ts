// Divisions [0.4.9.0, or any identity privilege: the identity form picks one]: the client's tree, limited to
// the divisions the user's grants cover.
import type { FastifyInstance } from 'fastify';
import { API, ListQuery, PRIV } from '../../contract';
import type { Db } from '../db/db';
import { divisionsOf } from '../db/queries/divisions';
import { clientOf, principal, query } from './common';

export function divisionRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(API.divisions, { config: { privileges: [PRIV.divisions.view, PRIV.identities.view, PRIV.identities.add, PRIV.identities.edit] } }, async (req) => {
    const clientId = clientOf(req);
    const f = query(req.query, ListQuery);
    const allowed = new Set(principal(req).entries.flatMap((e) => e.divisionIds));
    const needle = f.q?.trim().toLowerCase();
    const items = (await divisionsOf(db, clientId))
      .filter((r) => allowed.has(r.id) && (!needle || r.name.toLowerCase().includes(needle)))
      .map((r) => ({ id: r.id, clientId: r.client_id, name: r.name, parentId: r.parent_id }));
    return { items, total: items.length, page: 0, size: items.length };
  });
}
