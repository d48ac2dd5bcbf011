// The visitor watchlist (server/resources/watchlist.ts; issue 48: its queries in the queries room): the entries in
// force, the matches kept on a visitor or a visit request, their alarm event and the front desk's decision.
import type { Db } from '../db';
import { tenant } from '../tenant';

/** Which row a match is kept on: a visitor's or a visit request's. */
export type WatchlistOwner = 'visitor_id' | 'visit_request_id';

/** The client's watchlist entries in force today in its zone, by id. */
export async function watchlistInForce(
  db: Db,
  clientId: number,
): Promise<{ id: number; full_name: string; kind: string; reason: string; document_number: string | null }[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ id: number; full_name: string; kind: string; reason: string; document_number: string | null }>(
    `select w.id, w.full_name, w.kind, w.reason, w.document_number from visitor_watchlist w join clients c on c.id = w.client_id
    where ${tenant(params, clientId, 'w')} and (w.until is null or w.until >= (now() at time zone coalesce(c.timezone, 'UTC'))::date) order by w.id`,
    params,
  );
  return rows;
}

/** Keeps a match of entry `m.entryId` on the `owner` row `ownerId`: its id. */
export async function insertWatchlistMatch(
  db: Db,
  clientId: number | null,
  owner: WatchlistOwner,
  ownerId: number,
  m: { entryId: number; matchedOn: string; name: string; kind: string; reason: string },
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into visitor_watchlist_matches (client_id, entry_id, ${owner}, matched_on, entry_name, entry_kind, reason) values ($1,$2,$3,$4,$5,$6,$7) returning id`,
    [clientId, m.entryId, ownerId, m.matchedOn, m.name, m.kind, m.reason],
  );
  return Number(rows[0].id);
}

/** The alarm event `eventId` on the `owner` row's matches that have none yet. */
export async function setWatchlistAlarmEvent(db: Db, owner: WatchlistOwner, ownerId: number, eventId: unknown): Promise<void> {
  await db.query(`update visitor_watchlist_matches set alarm_event_id = $2 where ${owner} = $1 and alarm_event_id is null`, [ownerId, eventId]);
}

/** Decides the `owner` row's open matches: admitted or refused, by operator `userId`, with a note. */
export async function decideWatchlistMatches(
  db: Db,
  clientId: number | null,
  owner: WatchlistOwner,
  ownerId: number,
  state: 'admitted' | 'refused',
  userId: number,
  note: string | null,
): Promise<void> {
  const params: unknown[] = [ownerId];
  const inClient = tenant(params, clientId); // $2
  params.push(state, userId, note); // $3..$5
  await db.query(
    `update visitor_watchlist_matches set state = $3, decided_by = $4, decided_at = now(), decision_note = $5 where ${owner} = $1 and ${inClient} and state = 'open'`,
    params,
  );
}
