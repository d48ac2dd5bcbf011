// Visit requests decided at the front desk (server/resources/visitRequests.ts; issue 48: its queries in the queries
// room): approving one makes its registration (and carries its watchlist matches over), declining it keeps the note.
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The registration (an expected visitor, valid to the end of its day in the client's zone) made from request `id` by operator `userId`: its id. */
export async function visitorFromRequest(db: Db, clientId: number | null, id: number, userId: number): Promise<number> {
  const madeParams: unknown[] = [id];
  const madeWhere = tenant(madeParams, clientId, 'r'); // $2
  madeParams.push(userId); // $3
  const made = await db.query<{ id: number }>(
    `insert into visitors (client_id, first_name, last_name, company, email, phone, host_name, host_id, purpose,
              visit_date, valid_until, status, created_by)
            select r.client_id, r.first_name, r.last_name, r.company, r.email, r.phone, r.host_name, r.host_id, r.purpose,
              r.visit_date, ((r.visit_date + 1)::timestamp at time zone c.timezone), 'expected', $3
            from visit_requests r join clients c on c.id = r.client_id where r.id = $1 and ${madeWhere} returning id`,
    madeParams,
  );
  return made.rows[0].id;
}

/** Request `id` approved by operator `userId`, with the registration `visitorId` it made. */
export async function approveVisitRequest(db: Db, clientId: number | null, id: number, userId: number, visitorId: number): Promise<void> {
  const approvedParams: unknown[] = [id];
  const approvedWhere = tenant(approvedParams, clientId); // $2
  approvedParams.push(userId, visitorId); // $3, $4
  await db.query(
    `update visit_requests set status = 'approved', decided_by = $3, decided_at = now(), visitor_id = $4, updated_at = now()
            where id = $1 and ${approvedWhere}`,
    approvedParams,
  );
}

/** Copies request `id`'s watchlist matches (decided, with their alarm) onto registration `visitorId`. */
export async function carryWatchlistMatches(db: Db, id: number, visitorId: number): Promise<void> {
  await db.query(
    `insert into visitor_watchlist_matches (client_id, entry_id, visitor_id, matched_on, entry_name, entry_kind, reason, state, decided_by, decided_at, decision_note, alarm_event_id)
            select client_id, entry_id, $2, matched_on, entry_name, entry_kind, reason, state, decided_by, decided_at, decision_note, alarm_event_id
            from visitor_watchlist_matches where visit_request_id = $1`,
    [id, visitorId],
  );
}

/** Request `id` declined by operator `userId`, with the reason as its note. */
export async function declineVisitRequest(db: Db, clientId: number | null, id: number, userId: number, reason: unknown): Promise<void> {
  const declinedParams: unknown[] = [id];
  const declinedWhere = tenant(declinedParams, clientId); // $2
  declinedParams.push(userId, reason); // $3, $4
  await db.query(
    `update visit_requests set status = 'declined', decided_by = $3, decided_at = now(), decision_note = $4, updated_at = now()
            where id = $1 and ${declinedWhere}`,
    declinedParams,
  );
}
