// Divisions, the dashboard summary, the activity (audit) report and the UI error log.
import type { FastifyInstance } from 'fastify';
import { API, PRIV, UiErrorReport } from '../../contract';
import type { Db } from '../db/db';
import { body, clientOf, iso, listParams, principal } from './common';

export function miscRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(API.divisions, { config: { privileges: [PRIV.divisions.view, PRIV.identities.view, PRIV.identities.add, PRIV.identities.edit] } }, async (req) => {
    const clientId = clientOf(req);
    const allowed = new Set(principal(req).entries.flatMap((e) => e.divisionIds));
    const { rows } = await db.query<any>('select id, client_id, name, parent_id from divisions where client_id = $1 order by id', [clientId]);
    const items = rows.filter((r) => allowed.has(r.id)).map((r) => ({ id: r.id, clientId: r.client_id, name: r.name, parentId: r.parent_id }));
    return { items, total: items.length, page: 0, size: items.length };
  });

  app.get(API.dashboard, { config: { privileges: [PRIV.dashboard] } }, async (req) => {
    const clientId = clientOf(req);
    const count = async (sql: string) => Number((await db.query<{ n: string }>(sql, [clientId])).rows[0].n);
    const recent = await db.query<any>('select at, actor, action, entity from audit_log where client_id = $1 order by id desc limit 8', [clientId]);
    return {
      identities: await count('select count(*)::text n from identities where client_id = $1'),
      activeCredentials: await count(`select count(*)::text n from credentials where client_id = $1 and status = 'active'`),
      divisions: await count('select count(*)::text n from divisions where client_id = $1'),
      doors: await count('select count(*)::text n from doors where client_id = $1'),
      controllers: await count('select count(*)::text n from controllers where client_id = $1'),
      openAlarms: 0, // alarms arrive with the real-time issue; there are none stored yet
      recentChanges: recent.rows.map((r) => ({ at: iso(r.at)!, actor: r.actor, action: r.action, entity: r.entity })),
    };
  });

  app.get(API.audit, { config: { privileges: [PRIV.activityReport] } }, async (req) => {
    const clientId = clientOf(req);
    const lp = listParams(req.query, { at: 'at', actor: 'actor', action: 'action', entity: 'entity' }, 'id desc');
    const params: unknown[] = [clientId];
    let where = 'client_id = $1';
    if (lp.q) { params.push(`%${lp.q}%`); where += ` and (actor ilike $2 or action ilike $2 or entity ilike $2 or entity_id ilike $2)`; }
    const total = await db.query<{ n: string }>(`select count(*)::text n from audit_log where ${where}`, params);
    const { rows } = await db.query<any>(`select * from audit_log where ${where} order by ${lp.orderBy} limit ${lp.size} offset ${lp.page * lp.size}`, params);
    return {
      items: rows.map((r) => ({ id: Number(r.id), clientId: r.client_id, actor: r.actor, action: r.action, entity: r.entity, entityId: r.entity_id, before: r.before, after: r.after, at: iso(r.at) })),
      total: Number(total.rows[0].n), page: lp.page, size: lp.size,
    };
  });

  app.post(API.uiErrors, async (req, reply) => {
    const p = principal(req);
    const input = body(req.body, UiErrorReport);
    const { rows } = await db.query<{ id: number }>('insert into ui_errors (user_id, client_id, message, stack, url, user_agent) values ($1,$2,$3,$4,$5,$6) returning id',
      [p.userId, p.clientId, input.message, input.stack ?? null, input.url, input.userAgent ?? null]);
    return reply.code(201).send({ id: rows[0].id });
  });

  app.get(API.uiErrors, { config: { privileges: [PRIV.errorLog] } }, async (req) => {
    const p = principal(req);
    const lp = listParams(req.query, { at: 'at' }, 'id desc');
    const { rows } = await db.query<any>(`select * from ui_errors where client_id = $1 or (client_id is null and user_id = $2) order by ${lp.orderBy} limit ${lp.size} offset ${lp.page * lp.size}`, [p.clientId, p.userId]);
    const total = await db.query<{ n: string }>('select count(*)::text n from ui_errors where client_id = $1 or (client_id is null and user_id = $2)', [p.clientId, p.userId]);
    return { items: rows.map((r) => ({ id: r.id, message: r.message, stack: r.stack, url: r.url, at: iso(r.at) })), total: Number(total.rows[0].n), page: lp.page, size: lp.size };
  });
}
