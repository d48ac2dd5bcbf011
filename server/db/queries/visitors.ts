// Visitors at the front desk (server/resources/visitors.ts; issue 48: its queries in the queries room): the client's
// zone and visitor properties, a badge's validity, and the front desk's moves (badge printed, signed in, signed out).
import type { Db } from '../db';
import { tenant } from '../tenant';

export { clientTimezone } from './clients';

/** The client's saved visitor properties (none: the defaults apply). */
export async function visitorPropertiesRow(
  db: Db,
  clientId: number | null,
): Promise<{ require_photo: boolean; require_id_number: boolean; require_host_identity: boolean; days_ahead: number } | undefined> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ require_photo: boolean; require_id_number: boolean; require_host_identity: boolean; days_ahead: number }>(
    `select require_photo, require_id_number, require_host_identity, days_ahead from visitor_properties where ${tenant(params, clientId)}`,
    params,
  );
  return rows[0];
}

/** The end of visit day `visitDate` in the client's zone (a badge is valid until then). */
export async function endOfVisitDay(db: Db, clientId: number | null, visitDate: unknown): Promise<Date> {
  const { rows } = await db.query<{ v: Date }>(`select (($1::date + 1)::timestamp at time zone timezone) v from clients where id = $2`, [visitDate, clientId]);
  return rows[0].v;
}

/**
 * Moves visitor `id` of the client on, by operator `userId`: signed in ('on-site', from expected) or signed out
 * ('left', from on site). False when the visitor was not in the state it moves from.
 */
export async function moveVisitor(db: Db, clientId: number | null, id: number, to: 'on-site' | 'left', userId: number | null): Promise<boolean> {
  const params: unknown[] = [id];
  const inClient = tenant(params, clientId); // $2
  params.push(userId); // $3
  const sql =
    to === 'on-site'
      ? `update visitors set status = 'on-site', signed_in_at = now(), signed_in_by = $3, updated_at = now() where id = $1 and ${inClient} and status = 'expected' returning id`
      : `update visitors set status = 'left', signed_out_at = now(), signed_out_by = $3, updated_at = now() where id = $1 and ${inClient} and status = 'on-site' returning id`;
  return (await db.query(sql, params)).rows.length > 0;
}

/** Notes visitor `id`'s badge printed now. */
export async function markBadgePrinted(db: Db, clientId: number | null, id: number): Promise<void> {
  const params: unknown[] = [id];
  await db.query(`update visitors set badge_printed_at = now(), updated_at = now() where id = $1 and ${tenant(params, clientId)}`, params);
}
