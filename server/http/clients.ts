// Clients (tenants) [9.2.0 view, 9.2.1 add, 9.2.2 edit]. A user sees the clients they hold grants in; a
// client they hold none in is "not found", never "forbidden".
import type { FastifyInstance } from 'fastify';
import { API, ClientInput, PRIV } from '../../contract';
import { clientIdsOf } from '../auth/access';
import type { Db } from '../db/db';
import { CLIENT_SORT, clientById, clientCodeTaken, insertClient, listClients, updateClient, type ClientRow } from '../db/queries/clients';
import { insertDivision } from '../db/queries/divisions';
import { addGrant } from '../db/queries/grants';
import { enableMultiTenancy } from '../db/queries/users';
import { HttpError, audit, body, idParam, iso, listParams, principal } from './common';

const toClient = (r: ClientRow) => ({
  id: r.id, name: r.name, code: r.code, timezone: r.timezone, contactEmail: r.contact_email, address: r.address, active: r.active,
  createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
});
const codeTaken = new HttpError(400, 'Validation failed', [{ field: 'code', message: 'is already used by another client' }]);

export function clientRoutes(app: FastifyInstance, { db }: { db: Db }) {
  async function visible(dbx: Db, userId: number, id: number): Promise<ClientRow> {
    const row = (await clientIdsOf(dbx, userId)).includes(id) ? await clientById(dbx, id) : null;
    if (!row) throw new HttpError(404, 'Client not found');
    return row;
  }

  app.get(API.clients, { config: { privileges: [PRIV.clients.view] } }, async (req) => {
    const p = principal(req);
    const l = listParams(req.query, CLIENT_SORT, 'name asc, id asc');
    const { rows, total } = await listClients(db, await clientIdsOf(db, p.userId), l);
    return { items: rows.map(toClient), total, page: l.page, size: l.size };
  });

  app.get(`${API.clients}/:id`, { config: { privileges: [PRIV.clients.view] } }, async (req) => {
    return toClient(await visible(db, principal(req).userId, idParam(req, 'Client')));
  });

  app.post(API.clients, { config: { privileges: [PRIV.clients.add] } }, async (req, reply) => {
    const p = principal(req);
    const input = body(req.body, ClientInput);
    const created = await db.transaction(async (tx) => {
      if (await clientCodeTaken(tx, input.code, null)) throw codeTaken;
      const c = await insertClient(tx, input);
      const hq = await insertDivision(tx, c.id, 'Headquarters', null);
      // whoever creates a client administers it, and from then on works in more than one client
      await addGrant(tx, { userId: p.userId, role: 'administrator', clientId: c.id, divisionId: hq });
      await enableMultiTenancy(tx, p.userId);
      await audit(tx, req, { clientId: c.id, action: 'create', entity: 'client', entityId: c.id, before: null, after: toClient(c) });
      return c;
    });
    return reply.code(201).send(toClient(created));
  });

  app.put(`${API.clients}/:id`, { config: { privileges: [PRIV.clients.edit] } }, async (req) => {
    const p = principal(req);
    const id = idParam(req, 'Client');
    const input = body(req.body, ClientInput);
    return db.transaction(async (tx) => {
      const before = await visible(tx, p.userId, id);
      if (await clientCodeTaken(tx, input.code, id)) throw codeTaken;
      const after = (await updateClient(tx, id, input))!;
      await audit(tx, req, { clientId: id, action: 'update', entity: 'client', entityId: id, before: toClient(before), after: toClient(after) });
      return toClient(after);
    });
  });
}
