// Identities [0.3.1.x] with their credentials as repeated rows, scoped by client and by the divisions the
// user's matching grants cover (§6). Another client's row is "not found", never "forbidden".
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API, BulkDeleteRequest, IdentityInput, PRIV, type Violation } from '../../contract';
import type { Db } from '../db/db';
import { HttpError, audit, body, clientOf, divisionsFor, iso, listParams, principal } from './common';

const SORTABLE = { firstName: 'i.first_name', lastName: 'i.last_name', employeeNo: 'i.employee_no', email: 'i.email', status: 'i.status', divisionName: 'd.name', createdAt: 'i.created_at', updatedAt: 'i.updated_at' };
const COLS = `i.id, i.client_id, i.first_name, i.last_name, i.employee_no, i.email, i.phone, i.division_id, d.name as division_name, i.status,
  i.valid_from::text as valid_from, i.valid_to::text as valid_to, i.id_number, i.photo, i.created_at, i.updated_at`;

async function withCredentials(db: Db, rows: any[]) {
  if (!rows.length) return [];
  const creds = await db.query<any>(`select id, identity_id, type, number, facility_code, valid_from::text as valid_from, valid_to::text as valid_to, status
    from credentials where identity_id = any($1::int[]) order by id`, [rows.map((r) => r.id)]);
  return rows.map((r) => ({
    id: r.id, clientId: r.client_id, firstName: r.first_name, lastName: r.last_name, employeeNo: r.employee_no, email: r.email, phone: r.phone,
    divisionId: r.division_id, divisionName: r.division_name, status: r.status, validFrom: r.valid_from, validTo: r.valid_to,
    idNumber: r.id_number, photo: r.photo, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
    credentials: creds.rows.filter((c) => c.identity_id === r.id).map((c) => ({ id: c.id, type: c.type, number: c.number, facilityCode: c.facility_code, validFrom: c.valid_from, validTo: c.valid_to, status: c.status })),
  }));
}

export function identityRoutes(app: FastifyInstance, { db }: { db: Db }) {
  const scope = (req: FastifyRequest, codes: string[]) => ({ clientId: clientOf(req), divisions: divisionsFor(principal(req), codes) });
  const parseId = (v: unknown) => {
    const id = Number(v);
    if (!Number.isInteger(id) || id < 1) throw new HttpError(404, 'Identity not found');
    return id;
  };
  async function load(dbx: Db, clientId: number, divisions: number[], id: number) {
    const { rows } = await dbx.query(`select ${COLS} from identities i join divisions d on d.id = i.division_id where i.id = $1 and i.client_id = $2 and i.division_id = any($3::int[])`, [id, clientId, divisions]);
    if (!rows[0]) throw new HttpError(404, 'Identity not found');
    return (await withCredentials(dbx, rows))[0];
  }
  async function checkUnique(dbx: Db, clientId: number, input: IdentityInput, id: number | null) {
    const v: Violation[] = [];
    const emp = await dbx.query('select 1 from identities where client_id = $1 and employee_no = $2 and id <> $3', [clientId, input.employeeNo, id ?? 0]);
    if (emp.rows.length) v.push({ field: 'employeeNo', message: 'is already used by another identity' });
    const seen = new Map<string, number>();
    for (const [i, c] of input.credentials.entries()) {
      if (seen.has(c.number)) v.push({ field: `credentials.${i}.number`, message: 'is repeated in this form' });
      seen.set(c.number, i);
      const other = await dbx.query('select 1 from credentials where client_id = $1 and number = $2 and identity_id <> $3', [clientId, c.number, id ?? 0]);
      if (other.rows.length) v.push({ field: `credentials.${i}.number`, message: 'is already issued to another identity' });
    }
    if (input.validFrom && input.validTo && input.validTo < input.validFrom) v.push({ field: 'validTo', message: 'must not be before valid from' });
    if (v.length) throw new HttpError(400, 'Validation failed', v);
  }
  async function checkDivision(dbx: Db, clientId: number, divisions: number[], divisionId: number) {
    const { rows } = await dbx.query('select 1 from divisions where id = $1 and client_id = $2', [divisionId, clientId]);
    if (!rows.length || !divisions.includes(divisionId)) throw new HttpError(400, 'Validation failed', [{ field: 'divisionId', message: 'is not a division you may use' }]);
  }
  async function writeCredentials(dbx: Db, clientId: number, identityId: number, input: IdentityInput) {
    await dbx.query('delete from credentials where identity_id = $1', [identityId]);
    for (const c of input.credentials) {
      await dbx.query('insert into credentials (client_id, identity_id, type, number, facility_code, valid_from, valid_to, status) values ($1,$2,$3,$4,$5,$6,$7,$8)',
        [clientId, identityId, c.type, c.number, c.facilityCode ?? null, c.validFrom ?? null, c.validTo ?? null, c.status]);
    }
  }

  app.get(API.identities, { config: { privileges: [PRIV.identities.view] } }, async (req) => {
    const { clientId, divisions } = scope(req, [PRIV.identities.view]);
    const lp = listParams(req.query, SORTABLE, 'i.id asc');
    const q = req.query as Record<string, string | undefined>;
    const params: unknown[] = [clientId, divisions];
    let where = 'i.client_id = $1 and i.division_id = any($2::int[])';
    if (lp.q) { params.push(`%${lp.q}%`); where += ` and (i.first_name ilike $${params.length} or i.last_name ilike $${params.length} or i.employee_no ilike $${params.length} or i.email ilike $${params.length} or (i.first_name || ' ' || i.last_name) ilike $${params.length})`; }
    if (q.status) { params.push(q.status); where += ` and i.status = $${params.length}`; }
    if (q.divisionId && Number.isInteger(Number(q.divisionId))) { params.push(Number(q.divisionId)); where += ` and i.division_id = $${params.length}`; }
    const total = await db.query<{ n: string }>(`select count(*)::text n from identities i where ${where}`, params);
    const { rows } = await db.query(`select ${COLS} from identities i join divisions d on d.id = i.division_id where ${where} order by ${lp.orderBy} limit ${lp.size} offset ${lp.page * lp.size}`, params);
    return { items: await withCredentials(db, rows), total: Number(total.rows[0].n), page: lp.page, size: lp.size };
  });

  app.get(`${API.identities}/:id`, { config: { privileges: [PRIV.identities.view] } }, async (req) => {
    const { clientId, divisions } = scope(req, [PRIV.identities.view]);
    return load(db, clientId, divisions, parseId((req.params as any).id));
  });

  app.post(API.identities, { config: { privileges: [PRIV.identities.add] } }, async (req, reply) => {
    const { clientId, divisions } = scope(req, [PRIV.identities.add]);
    const input = body(req.body, IdentityInput);
    const created = await db.transaction(async (tx) => {
      await checkDivision(tx, clientId, divisions, input.divisionId);
      await checkUnique(tx, clientId, input, null);
      const { rows } = await tx.query<{ id: number }>(`insert into identities (client_id, first_name, last_name, employee_no, email, phone, division_id, status, valid_from, valid_to, id_number, photo)
        values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) returning id`,
        [clientId, input.firstName, input.lastName, input.employeeNo, input.email ?? null, input.phone ?? null, input.divisionId, input.status, input.validFrom ?? null, input.validTo ?? null, input.idNumber ?? null, input.photo ?? null]);
      await writeCredentials(tx, clientId, rows[0].id, input);
      const after = await load(tx, clientId, divisions, rows[0].id);
      await audit(tx, req, { clientId, action: 'create', entity: 'identity', entityId: rows[0].id, before: null, after });
      return after;
    });
    return reply.code(201).send(created);
  });

  app.put(`${API.identities}/:id`, { config: { privileges: [PRIV.identities.edit] } }, async (req) => {
    const { clientId, divisions } = scope(req, [PRIV.identities.edit]);
    const id = parseId((req.params as any).id);
    const before = await load(db, clientId, divisions, id);
    const input = body(req.body, IdentityInput);
    return db.transaction(async (tx) => {
      await checkDivision(tx, clientId, divisions, input.divisionId);
      await checkUnique(tx, clientId, input, id);
      await tx.query(`update identities set first_name=$3, last_name=$4, employee_no=$5, email=$6, phone=$7, division_id=$8, status=$9, valid_from=$10, valid_to=$11, id_number=$12, photo=$13, updated_at=now()
        where id=$1 and client_id=$2`,
        [id, clientId, input.firstName, input.lastName, input.employeeNo, input.email ?? null, input.phone ?? null, input.divisionId, input.status, input.validFrom ?? null, input.validTo ?? null, input.idNumber ?? null, input.photo ?? null]);
      await writeCredentials(tx, clientId, id, input);
      const after = await load(tx, clientId, divisions, id);
      await audit(tx, req, { clientId, action: 'update', entity: 'identity', entityId: id, before, after });
      return after;
    });
  });

  app.post(API.identitiesBulkDelete, { config: { privileges: [PRIV.identities.delete] } }, async (req) => {
    const { clientId, divisions } = scope(req, [PRIV.identities.delete]);
    const { ids } = body(req.body, BulkDeleteRequest);
    return db.transaction(async (tx) => {
      const found = await tx.query<{ id: number }>('select id from identities where id = any($1::int[]) and client_id = $2 and division_id = any($3::int[])', [ids, clientId, divisions]);
      if (found.rows.length !== new Set(ids).size) throw new HttpError(404, 'Some identities were not found; nothing was deleted');
      for (const { id } of found.rows) {
        const before = await load(tx, clientId, divisions, id);
        await tx.query('delete from identities where id = $1 and client_id = $2', [id, clientId]);
        await audit(tx, req, { clientId, action: 'delete', entity: 'identity', entityId: id, before, after: null });
      }
      return { deleted: found.rows.length };
    });
  });
}
