// Identities [0.3.1.x] with their credentials as repeated rows, scoped by client and by the divisions the
// user's matching grants cover (§6). Another client's row is "not found", never "forbidden".
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API, BulkDeleteRequest, IdentityInput, IdentityListQuery, PRIV, type Violation } from '../../contract';
import type { Db } from '../db/db';
import { divisionInClient } from '../db/queries/divisions';
import * as q from '../db/queries/identities';
import type { IdentityRow } from '../db/queries/identities';
import { HttpError, audit, body, clientOf, dateOnly, divisionsFor, idParam, iso, listParams, principal, query } from './common';

async function withCredentials(db: Db, clientId: number, rows: IdentityRow[]) {
  const creds = await q.credentialsOf(db, clientId, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id, clientId: r.client_id, firstName: r.first_name, lastName: r.last_name, employeeNo: r.employee_no, email: r.email, phone: r.phone,
    divisionId: r.division_id, divisionName: r.division_name, status: r.status, validFrom: dateOnly(r.valid_from), validTo: dateOnly(r.valid_to),
    idNumber: r.id_number, photo: r.photo, createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!,
    credentials: creds.filter((c) => c.identity_id === r.id).map((c) => ({
      id: c.id, type: c.type, number: c.number, facilityCode: c.facility_code, validFrom: dateOnly(c.valid_from), validTo: dateOnly(c.valid_to), status: c.status,
    })),
  }));
}

export function identityRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const scope = (req: FastifyRequest, code: string) => ({ clientId: clientOf(req), divisions: divisionsFor(principal(req), [code]) });

  async function load(dbx: Db, clientId: number, divisions: number[], id: number) {
    const row = await q.identityById(dbx, clientId, divisions, id);
    if (!row) throw new HttpError(404, 'Identity not found');
    return (await withCredentials(dbx, clientId, [row]))[0];
  }

  /** The rules a schema cannot see: the division is one the user may use, numbers are unique per client. */
  async function check(dbx: Db, clientId: number, divisions: number[], input: IdentityInput, id: number | null) {
    const v: Violation[] = [];
    if (!divisions.includes(input.divisionId) || !(await divisionInClient(dbx, clientId, input.divisionId))) {
      v.push({ field: 'divisionId', message: 'is not a division you may use' });
    }
    if (await q.employeeNoTaken(dbx, clientId, input.employeeNo, id)) v.push({ field: 'employeeNo', message: 'is already used by another identity' });
    const seen = new Set<string>();
    for (const [i, c] of input.credentials.entries()) {
      if (seen.has(c.number)) v.push({ field: `credentials.${i}.number`, message: 'is repeated in this form' });
      else if (await q.credentialNumberTaken(dbx, clientId, c.number, id)) v.push({ field: `credentials.${i}.number`, message: 'is already issued to another identity' });
      seen.add(c.number);
      if (c.validFrom && c.validTo && c.validTo < c.validFrom) v.push({ field: `credentials.${i}.validTo`, message: 'must not be before valid from' });
    }
    if (input.validFrom && input.validTo && input.validTo < input.validFrom) v.push({ field: 'validTo', message: 'must not be before valid from' });
    if (v.length) throw new HttpError(400, 'Validation failed', v);
  }

  app.get(API.identities, { config: { privileges: [PRIV.identities.view] } }, async (req) => {
    const { clientId, divisions } = scope(req, PRIV.identities.view);
    const l = listParams(req.query, q.IDENTITY_SORT, 'i.id asc', IdentityListQuery);
    const f = query(req.query, IdentityListQuery, ['page', 'size', 'divisionId']);
    const { rows, total } = await q.listIdentities(db, clientId, divisions, { q: l.q, status: f.status, divisionId: f.divisionId }, l);
    return { items: await withCredentials(db, clientId, rows), total, page: l.page, size: l.size };
  });

  app.get(`${API.identities}/:id`, { config: { privileges: [PRIV.identities.view] } }, async (req) => {
    const { clientId, divisions } = scope(req, PRIV.identities.view);
    return load(db, clientId, divisions, idParam(req, 'Identity'));
  });

  app.post(API.identities, { config: { privileges: [PRIV.identities.add] } }, async (req, reply) => {
    const { clientId, divisions } = scope(req, PRIV.identities.add);
    const input = body(req.body, IdentityInput);
    const created = await db.transaction(async (tx) => {
      await check(tx, clientId, divisions, input, null);
      const id = await q.insertIdentity(tx, clientId, input);
      await q.replaceCredentials(tx, clientId, id, input.credentials);
      const after = await load(tx, clientId, divisions, id);
      await audit(tx, req, { clientId, action: 'create', entity: 'identity', entityId: id, before: null, after });
      return after;
    });
    return reply.code(201).send(created);
  });

  app.put(`${API.identities}/:id`, { config: { privileges: [PRIV.identities.edit] } }, async (req) => {
    const { clientId, divisions } = scope(req, PRIV.identities.edit);
    const id = idParam(req, 'Identity');
    const input = body(req.body, IdentityInput);
    return db.transaction(async (tx) => {
      const before = await load(tx, clientId, divisions, id);
      await check(tx, clientId, divisions, input, id);
      await q.updateIdentity(tx, clientId, id, input);
      await q.replaceCredentials(tx, clientId, id, input.credentials);
      const after = await load(tx, clientId, divisions, id);
      await audit(tx, req, { clientId, action: 'update', entity: 'identity', entityId: id, before, after });
      return after;
    });
  });

  // all or nothing: one id that is not visible (another client's, another division's, gone) deletes none
  app.post(API.identitiesBulkDelete, { config: { privileges: [PRIV.identities.delete] } }, async (req) => {
    const { clientId, divisions } = scope(req, PRIV.identities.delete);
    const { ids } = body(req.body, BulkDeleteRequest);
    return db.transaction(async (tx) => {
      const found = await q.visibleIdentityIds(tx, clientId, divisions, [...new Set(ids)]);
      if (found.length !== new Set(ids).size) throw new HttpError(404, 'Some identities were not found; nothing was deleted');
      for (const id of found) {
        const before = await load(tx, clientId, divisions, id);
        await q.deleteIdentity(tx, clientId, id);
        await audit(tx, req, { clientId, action: 'delete', entity: 'identity', entityId: id, before, after: null });
      }
      return { deleted: found.length };
    });
  });
}
