// Visitors registered at the front desk. Every statement is scoped by client_id: another tenant's visitor
// simply is not there.
import type { Db } from '../db';
import { like, window, type ListWindow } from './list';

export interface VisitorRow {
  id: number; client_id: number; first_name: string; last_name: string; id_number: string | null; company: string | null;
  email: string | null; phone: string | null; photo: string | null; host_name: string; purpose: string; visit_date: string;
  valid_until: Date | string; status: string; badge_printed_at: Date | string | null; created_by_name: string | null;
  signed_in_at: Date | string | null; signed_out_at: Date | string | null;
  created_at: Date | string; updated_at: Date | string;
}
export interface VisitorFields {
  firstName: string; lastName: string; idNumber?: string | null; company?: string | null; email?: string | null; phone?: string | null;
  photo?: string | null; hostName: string; purpose: string; visitDate: string;
}
export interface VisitorFilter { q: string | null; status?: string; visitDate?: string }

export const VISITOR_SORT = {
  lastName: 'v.last_name', firstName: 'v.first_name', company: 'v.company', hostName: 'v.host_name', visitDate: 'v.visit_date',
  status: 'v.status', createdAt: 'v.created_at', id: 'v.id',
};
const COLS = `v.id, v.client_id, v.first_name, v.last_name, v.id_number, v.company, v.email, v.phone, v.photo, v.host_name, v.purpose,
  v.visit_date::text as visit_date, v.valid_until, v.status, v.badge_printed_at, u.name as created_by_name, v.signed_in_at, v.signed_out_at,
  v.created_at, v.updated_at`;
const FROM = 'visitors v left join users u on u.id = v.created_by';

export async function listVisitors(db: Db, clientId: number, f: VisitorFilter, l: ListWindow): Promise<{ rows: VisitorRow[]; total: number }> {
  const params: unknown[] = [clientId];
  let where = 'v.client_id = $1';
  if (f.q) {
    params.push(like(f.q));
    const n = `$${params.length}`;
    where += ` and (v.first_name ilike ${n} or v.last_name ilike ${n} or (v.first_name || ' ' || v.last_name) ilike ${n} or v.company ilike ${n}
      or v.host_name ilike ${n} or v.id_number ilike ${n})`;
  }
  if (f.status) { params.push(f.status); where += ` and v.status = $${params.length}`; }
  if (f.visitDate) { params.push(f.visitDate); where += ` and v.visit_date = $${params.length}::date`; }
  const total = await db.query<{ n: string }>(`select count(*)::text n from visitors v where ${where}`, params);
  // the list leaves the photos out: they are the heavy part and the details page shows them
  const { rows } = await db.query<VisitorRow>(`select ${COLS.replace('v.photo,', 'null as photo,')} from ${FROM} where ${where} ${window(l)}`, params);
  return { rows, total: Number(total.rows[0].n) };
}
export async function visitorById(db: Db, clientId: number, id: number): Promise<VisitorRow | null> {
  const { rows } = await db.query<VisitorRow>(`select ${COLS} from ${FROM} where v.id = $1 and v.client_id = $2`, [id, clientId]);
  return rows[0] ?? null;
}
/** Today in the client's time zone (the front desk's day, not the server's). */
export async function clientToday(db: Db, clientId: number): Promise<string> {
  const { rows } = await db.query<{ d: string }>(`select (now() at time zone timezone)::date::text d from clients where id = $1`, [clientId]);
  return rows[0].d;
}
/** A visit is valid until the end of its day in the client's time zone. */
export async function insertVisitor(db: Db, clientId: number, userId: number, f: VisitorFields): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`insert into visitors (client_id, first_name, last_name, id_number, company, email, phone, photo,
      host_name, purpose, visit_date, valid_until, created_by)
    select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::date, (($11::date + 1)::timestamp at time zone c.timezone), $12 from clients c where c.id = $1
    returning id`,
  [clientId, f.firstName.trim(), f.lastName.trim(), f.idNumber || null, f.company || null, f.email || null, f.phone || null, f.photo || null,
    f.hostName.trim(), f.purpose, f.visitDate, userId]);
  return rows[0].id;
}
export async function markBadgePrinted(db: Db, clientId: number, id: number): Promise<void> {
  await db.query('update visitors set badge_printed_at = now(), updated_at = now() where id = $1 and client_id = $2', [id, clientId]);
}

/**
 * Moves a visit along expected → on-site → left, only from the state it must be in; false when it was not
 * (someone else already did it, or it is in another state).
 */
export async function moveVisit(db: Db, clientId: number, id: number, userId: number, to: 'on-site' | 'left'): Promise<boolean> {
  const sql = to === 'on-site'
    ? `update visitors set status = 'on-site', signed_in_at = now(), signed_in_by = $3, updated_at = now() where id = $1 and client_id = $2 and status = 'expected' returning id`
    : `update visitors set status = 'left', signed_out_at = now(), signed_out_by = $3, updated_at = now() where id = $1 and client_id = $2 and status = 'on-site' returning id`;
  return (await db.query(sql, [id, clientId, userId])).rows.length > 0;
}
