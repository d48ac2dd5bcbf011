// Visitors (issue 5): register [1.0.1], list [1.0.3], one visitor [1.0.3 or 1.0.5], the record that a badge
// was printed for the visit [1.0.1], sign in on arrival [1.0.2] and sign out on leaving [1.0.7] (the desktop companion prints it; the server keeps when). Scoped by
// the selected client; another client's visitor is "not found".
import type { FastifyInstance } from 'fastify';
import { API, DESTINATIONS, PRIV, VisitorInput, VisitorListQuery } from '../../contract';
import type { Db } from '../db/db';
import * as q from '../db/queries/visitors';
import type { VisitorRow } from '../db/queries/visitors';
import { HttpError, audit, body, clientOf, idParam, iso, listParams, principal, query } from './common';

const MAX_DAYS_AHEAD = 366;

export const toVisitor = (r: VisitorRow) => ({
  id: r.id, clientId: r.client_id, firstName: r.first_name, lastName: r.last_name, idNumber: r.id_number, company: r.company,
  email: r.email, phone: r.phone, photo: r.photo, hostName: r.host_name, purpose: r.purpose, visitDate: r.visit_date,
  validUntil: iso(r.valid_until)!, status: r.status, badgePrintedAt: iso(r.badge_printed_at), createdBy: r.created_by_name,
  signedInAt: iso(r.signed_in_at), signedOutAt: iso(r.signed_out_at), createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
});

/** Publishes to the client's real-time subscribers (the visitor-management service's `/clocking`). */
type Publish = (clientId: number, destination: string, body: unknown) => void;

export function visitorRoutes(app: FastifyInstance, { db, publish }: { db: Db; publish?: Publish }) {
  async function load(dbx: Db, clientId: number, id: number) {
    const row = await q.visitorById(dbx, clientId, id);
    if (!row) throw new HttpError(404, 'Visitor not found');
    return toVisitor(row);
  }

  app.get(API.visitors, { config: { privileges: [PRIV.visitors.view] } }, async (req) => {
    const clientId = clientOf(req);
    const l = listParams(req.query, q.VISITOR_SORT, 'v.visit_date desc, v.id desc', VisitorListQuery);
    const f = query(req.query, VisitorListQuery);
    const { rows, total } = await q.listVisitors(db, clientId, { q: l.q, status: f.status, visitDate: f.visitDate }, l);
    return { items: rows.map(toVisitor), total, page: l.page, size: l.size };
  });

  app.get(`${API.visitors}/:id`, { config: { privileges: [PRIV.visitors.view, PRIV.visitors.details, PRIV.visitors.add] } }, async (req) => {
    return load(db, clientOf(req), idParam(req, 'Visitor'));
  });

  app.post(API.visitors, { config: { privileges: [PRIV.visitors.add] } }, async (req, reply) => {
    const clientId = clientOf(req);
    const input = body(req.body, VisitorInput);
    const created = await db.transaction(async (tx) => {
      // the front desk's day, in the client's time zone: a visit is today or later, within a year
      const today = await q.clientToday(tx, clientId);
      const days = (Date.parse(input.visitDate) - Date.parse(today)) / 86_400_000;
      if (Number.isNaN(days)) throw new HttpError(400, 'Validation failed', [{ field: 'visitDate', message: 'is not a date' }]);
      if (days < 0) throw new HttpError(400, 'Validation failed', [{ field: 'visitDate', message: `must not be before today (${today})` }]);
      if (days > MAX_DAYS_AHEAD) throw new HttpError(400, 'Validation failed', [{ field: 'visitDate', message: 'must be within a year' }]);
      const id = await q.insertVisitor(tx, clientId, principal(req).userId, input);
      const after = await load(tx, clientId, id);
      // the audit keeps who came, not the photo
      await audit(tx, req, { clientId, action: 'create', entity: 'visitor', entityId: id, before: null, after: { ...after, photo: after.photo ? '(photo)' : null } });
      return after;
    });
    return reply.code(201).send(created);
  });

  app.post(`${API.visitors}/:id/badge-printed`, { config: { privileges: [PRIV.visitors.add] } }, async (req) => {
    const clientId = clientOf(req);
    const id = idParam(req, 'Visitor');
    return db.transaction(async (tx) => {
      await load(tx, clientId, id);
      await q.markBadgePrinted(tx, clientId, id);
      const after = await load(tx, clientId, id);
      await audit(tx, req, { clientId, action: 'badge-printed', entity: 'visitor', entityId: id, before: null, after: { badgePrintedAt: after.badgePrintedAt } });
      return after;
    });
  });

  const moves = [
    { path: 'sign-in', to: 'on-site', from: 'expected', privilege: PRIV.visitors.signIn, action: 'sign-in' },
    { path: 'sign-out', to: 'left', from: 'on-site', privilege: PRIV.visitors.signOut, action: 'sign-out' },
  ] as const;
  for (const m of moves) {
    app.post(`${API.visitors}/:id/${m.path}`, { config: { privileges: [m.privilege] } }, async (req) => {
      const clientId = clientOf(req);
      const id = idParam(req, 'Visitor');
      return db.transaction(async (tx) => {
        const before = await load(tx, clientId, id);
        if (!(await q.moveVisit(tx, clientId, id, principal(req).userId, m.to))) {
          throw new HttpError(409, before.status === m.to ? `${before.firstName} ${before.lastName} is already ${m.to === 'left' ? 'signed out' : 'signed in'}`
            : `Only a visitor who is ${m.from === 'expected' ? 'expected' : 'on site'} can be ${m.to === 'left' ? 'signed out' : 'signed in'}`);
        }
        const after = await load(tx, clientId, id);
        await audit(tx, req, { clientId, action: m.action, entity: 'visitor', entityId: id, before: { status: before.status }, after: { status: after.status } });
        return after;
      }).then((after) => {
        // after the commit: every front desk of the client sees the arrival or departure at once
        publish?.(clientId, DESTINATIONS.clocking, {
          id: after.id, name: `${after.firstName} ${after.lastName}`, direction: m.to === 'left' ? 'out' : 'in',
          time: (m.to === 'left' ? after.signedOutAt : after.signedInAt) ?? new Date().toISOString(),
        });
        return after;
      });
    });
  }
}
