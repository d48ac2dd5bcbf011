// Clients (tenants) [9.2.0 view, 9.2.1 add, 9.2.2 edit]. A user sees the clients they hold grants in.
import type { FastifyInstance } from 'fastify';
import { API, ClientInput, PRIV } from '../../contract';
import { clientIdsOf } from '../auth/access';
import type { Db } from '../db/db';
import { HttpError, audit, body, iso, listParams, principal } from './common';

const SORTABLE = { name: 'name', code: 'code', timezone: 'timezone', active: 'active', createdAt: 'created_at' };
const toClient = (r: any) => ({ id: r.id, name: r.name, code: r.code, timezone: r.timezone, contactEmail: r.contact_email, address: r.address, active: r.active, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at) });

export function clientRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const visible = async (userId: number, id: number) => {
    if (!(await clientIdsOf(db, userId)).includes(id)) throw new HttpError(404, 'Client not found');
    const { rows } = await db.query('select * from clients where id = $1', [id]);
    if (!rows[0]) throw new HttpError(404, 'Client not found');
    return rows[0];
  };
  const parseId = (v: unknown) => {
    const id = Number(v);
    if (!Number.isInteger(id) || id < 1) throw new HttpError(404, 'Client not found');
    return id;
  };

  app.get(API.clients, { config: { privileges: [PRIV.clients.view] } }, async (req) => {
    const p = principal(req);
    const lp = listParams(req.query, SORTABLE, 'name asc, id asc');
    const ids = await clientIdsOf(db, p.userId);
    const where = `id = any($1::int[])` + (lp.q ? ` and (name ilike $2 or code ilike $2)` : '');
    const params: unknown[] = [ids, ...(lp.q ? [`%${lp.q}%`] : [])];
    const total = await db.query<{ n: string }>(`select count(*)::text n from clients where ${where}`, params);
    const { rows } = await db.query(`select * from clients where ${where} order by ${lp.orderBy} limit ${lp.size} offset ${lp.page * lp.size}`, params);
    return { items: rows.map(toClient), total: Number(total.rows[0].n), page: lp.page, size: lp.size };
  });

  app.get(`${API.clients}/:id`, { config: { privileges: [PRIV.clients.view] } }, async (req) => {
    return toClient(await visible(principal(req).userId, parseId((req.params as any).id)));
  });

  app.post(API.clients, { config: { privileges: [PRIV.clients.add] } }, async (req, reply) => {
    const p = principal(req);
    const input = body(req.body, ClientInput);
    const created = await db.transaction(async (tx) => {
      const dup = await tx.query('select 1 from clients where code = $1', [input.code]);
      if (dup.rows.length) throw new HttpError(400, 'Validation failed', [{ field: 'code', message: 'is already used by another client' }]);
      const { rows } = await tx.query('insert into clients (name, code, timezone, contact_email, address, active) values ($1,$2,$3,$4,$5,$6) returning *',
        [input.name, input.code, input.timezone, input.contactEmail ?? null, input.address ?? null, input.active]);
      const c = rows[0] as any;
      const hq = await tx.query<{ id: number }>('insert into divisions (client_id, name, parent_id) values ($1, $2, null) returning id', [c.id, 'Headquarters']);
      // whoever creates a client administers it
      await tx.query(`insert into user_grants (user_id, role_code, client_id, division_id) values ($1, 'administrator', $2, $3)`, [p.userId, c.id, hq.rows[0].id]);
      await tx.query('update users set multi_tenancy = true where id = $1', [p.userId]);
      await audit(tx, req, { clientId: c.id, action: 'create', entity: 'client', entityId: c.id, before: null, after: toClient(c) });
      return c;
    });
    return reply.code(201).send(toClient(created));
  });

  app.put(`${API.clients}/:id`, { config: { privileges: [PRIV.clients.edit] } }, async (req) => {
    const p = principal(req);
    const id = parseId((req.params as any).id);
    const input = body(req.body, ClientInput);
    const before = await visible(p.userId, id);
    return db.transaction(async (tx) => {
      const dup = await tx.query('select 1 from clients where code = $1 and id <> $2', [input.code, id]);
      if (dup.rows.length) throw new HttpError(400, 'Validation failed', [{ field: 'code', message: 'is already used by another client' }]);
      const { rows } = await tx.query('update clients set name=$2, code=$3, timezone=$4, contact_email=$5, address=$6, active=$7, updated_at=now() where id=$1 returning *',
        [id, input.name, input.code, input.timezone, input.contactEmail ?? null, input.address ?? null, input.active]);
      await audit(tx, req, { clientId: id, action: 'update', entity: 'client', entityId: id, before: toClient(before), after: toClient(rows[0]) });
      return toClient(rows[0]);
    });
  });
}
