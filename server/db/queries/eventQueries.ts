// The events list, its export and the alarm types (server/http/events.ts, export.ts, alarms.ts; issue 48: their
// queries in the queries room). `where` and its `params` are the list's filters (server/http/events.ts eventFilters:
// the client, its divisions and what was asked for), built from parameters only.
import type { Db } from '../db';
import { tenant } from '../tenant';

/** One page of the filtered events (`limit` rows from `offset`, in `orderBy`), each with its alarm's state and instructions. */
export async function eventListPage(db: Db, where: string, params: unknown[], orderBy: string, limit: number, offset: number): Promise<any[]> {
  const { rows } = await db.query<any>(
    `select e.*, a.state as alarm_state, a.instructions from events e left join alarms a on a.event_id = e.id
      where ${where} order by ${orderBy} limit ${limit} offset ${offset}`,
    params,
  );
  return rows;
}

/** How many events match, counted up to `cap` + 1. */
export async function countEventsUpTo(db: Db, where: string, params: unknown[], cap: number): Promise<number> {
  return Number((await db.query<{ n: string }>(`select count(*)::text n from (select 1 from events e where ${where} limit ${cap + 1}) t`, params)).rows[0].n);
}

/** One page of an export, newest first: `pageSize` events below id `cursor` (from the newest when null). */
export async function exportEventPage<Row>(db: Db, where: string, params: unknown[], cursor: string | null, pageSize: number): Promise<Row[]> {
  const n = params.length;
  const sql = (after: boolean) => `select e.id, e.at, e.event_code, e.event_source_id, e.event_source_name, e.event_point_id, e.event_point_name,
      e.message, e.alert, e.priority, a.state as alarm_state
    from events e left join alarms a on a.event_id = e.id
    where ${where}${after ? ` and e.id < $${n + 1}::bigint` : ''} order by e.id desc limit ${pageSize}`;
  const { rows } = await db.query<any>(sql(cursor !== null), cursor === null ? params : [...params, cursor]);
  return rows as Row[];
}

/** How many events match (exact). */
export async function countEvents(db: Db, where: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: string }>(`select count(*)::text n from events e where ${where}`, params);
  return Number(rows[0].n);
}

/** The alarm types the client sees: its own, else the platform's, one per event code. */
export async function alarmTypesOf(db: Db, clientId: number): Promise<any[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<any>(
    `select distinct on (event_code) event_code, name, priority, instructions from alarm_types
      where ${tenant(params, clientId)} or client_id is null order by event_code, client_id nulls last`,
    params,
  );
  return rows;
}
