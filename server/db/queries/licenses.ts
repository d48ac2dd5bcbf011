// Licenses (server/resources/licenses.ts; issue 48: in the queries room): what a tenant's verified key grants, and
// its seats counted live.
import type { Seat } from '../../../contract';
import type { Db } from '../db';
import { tenant } from '../tenant';

/** What a verified key grants, as kept in the tenant's license row. */
export interface LicenseValues {
  licenseKey: string;
  licensee: string;
  modules: string;
  seats: Record<Seat, number>;
  validTo: string;
}

/** Writes (or replaces) the tenant's license row. */
export async function upsertLicense(db: Db, clientId: number, l: LicenseValues): Promise<void> {
  await db.query(
    `insert into licenses (client_id, license_key, licensee, modules, identity_seats, door_seats, reader_seats, operator_seats, valid_to)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (client_id) do update set license_key = excluded.license_key, licensee = excluded.licensee, modules = excluded.modules,
       identity_seats = excluded.identity_seats, door_seats = excluded.door_seats, reader_seats = excluded.reader_seats,
       operator_seats = excluded.operator_seats, valid_to = excluded.valid_to, updated_at = now()`,
    [clientId, l.licenseKey, l.licensee, l.modules, l.seats.identities, l.seats.doors, l.seats.readers, l.seats.operators, l.validTo],
  );
}

const USED: Record<Seat, string> = {
  identities: `(select count(*)::int from identities i where i.client_id = t.client_id)`,
  doors: `(select count(*)::int from doors d where d.client_id = t.client_id)`,
  readers: `(select count(*)::int from card_readers r where r.client_id = t.client_id)`,
  operators: `(select count(distinct g.user_id)::int from user_grants g where g.client_id = t.client_id)`,
};
const SEAT_COLUMN: Record<Seat, string> = { identities: 'identity_seats', doors: 'door_seats', readers: 'reader_seats', operators: 'operator_seats' };

/**
 * The tenant's seats of `seat` and how many are in use, its license row locked for the transaction (so two imports
 * cannot both take the last seats); undefined when it has no license row.
 */
export async function lockedSeats(db: Db, clientId: number, seat: Seat): Promise<{ seats: number; used: number } | undefined> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ seats: number; used: number }>(
    `select t.${SEAT_COLUMN[seat]} as seats, ${USED[seat]} as used from licenses t where ${tenant(params, clientId, 't')} for update`,
    params,
  );
  return rows[0];
}

const SELECT = `t.id, t.client_id as "clientId", t.license_key as "licenseKey", t.licensee, t.modules,
  t.identity_seats as "identitySeats", ${USED.identities} as "identitiesUsed", t.door_seats as "doorSeats", ${USED.doors} as "doorsUsed",
  t.reader_seats as "readerSeats", ${USED.readers} as "readersUsed", t.operator_seats as "operatorSeats", ${USED.operators} as "operatorsUsed",
  t.valid_to::text as "validTo", t.created_at as "createdAt", t.updated_at as "updatedAt"`;

/** The tenant's license `id` with its seats in use (locked for the transaction when `lock`); undefined when it has none of that id. */
export async function licenseRow(db: Db, clientId: number, id: number, lock = false): Promise<Record<string, unknown> | undefined> {
  const params: unknown[] = [id];
  const { rows } = await db.query<Record<string, unknown>>(
    `select ${SELECT} from licenses t where t.id = $1 and ${tenant(params, clientId, 't')}${lock ? ' for update' : ''}`,
    params,
  );
  return rows[0];
}

/** The tenant's licenses with their seats in use. */
export async function licenseRows(db: Db, clientId: number): Promise<Record<string, unknown>[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<Record<string, unknown>>(`select ${SELECT} from licenses t where ${tenant(params, clientId, 't')} order by t.id`, params);
  return rows;
}

/** Client `clientId`'s code (a key issued to one client names it). */
export async function clientCode(db: Db, clientId: number): Promise<string> {
  const { rows } = await db.query<{ code: string }>('select code from clients where id = $1', [clientId]);
  return rows[0].code;
}
