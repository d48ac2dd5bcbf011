// The event pipeline's batch statements (server/monitor/pipeline.ts; issue 48: a room's SQL in the queries room): a
// batch's events in one insert, each controller's journal number in the same transaction, the alarms the batch raises
// and those it returns to normal. Each statement takes the batch's values as arrays (one round trip a batch, not one a
// row); the client of every row is in its values.
import type { Event } from '../../../contract';
import type { Db } from '../db';

/**
 * A batch's insert (`table`: the events, or the benchmark's scratch copy of them, which measures the database's own limit
 * with this very statement): one row back instead of one per event (the ids as one text, the time once: at is now(),
 * the same for the whole statement), so the driver parses a row and one date per batch, not thousands. The decided
 * swipes ($14): one JSON array (null: none), zipped in by `rows from` into a json column, stored as sent (issue 47:
 * an edge's resync, a swipe and its Why? chain a row; as jsonb[] and jsonb they were parsed again, migration 195).
 */
export const eventsInsert = (table: string) => `with ins as (insert into ${table} (client_id, event_code, event_source_id, event_source_name, event_point_id,
    event_point_name, message, alert, priority, division_id, identity_id, decision, reason, swipe, message_code, message_values)
  select c, code, sid, sname, pid, pname, msg, alert, prio, div, ident, dec, why, case when json_typeof(sw) = 'null' then null else sw end, mc, mv
  from rows from (unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::int[], $10::int[],
    $11::int[], $12::text[], $13::text[], $15::text[], $16::jsonb[]), json_array_elements($14::json)) as u(c, code, sid, sname, pid, pname, msg, alert, prio, div, ident, dec, why, mc, mv, sw)
  returning id, at)
  select string_agg(id::text, ',' order by id) as ids, min(at) as at from ins`;
const EVENTS_INSERT = eventsInsert('events');

/** A batch's events stored (`columns`: the sixteen arrays of EVENTS_INSERT); their ids as one text, in order, and the
 *  time they were stored. */
export async function insertEvents(tx: Db, columns: unknown[]): Promise<{ ids: string; at: Date | string }> {
  const { rows } = await tx.query<{ ids: string; at: Date | string }>(EVENTS_INSERT, columns);
  return rows[0];
}

/**
 * Each controller's last journal number moves to the end of its range (controller → [first, last]) when it stood just
 * before the range's first; how many moved (fewer than named: a batch before these was not stored). On PostgreSQL the
 * rows are locked first (`lockFirst`), so an update the previous transaction made and has not committed yet is waited
 * for and read, not its committed version before it: in controller order, and for no key update, which does not wait
 * for the key-share lock of a number noted ahead (noteEdgeAhead's foreign key check) by a transaction that then asks for
 * one of these rows (docs/ARCHITECTURE.md, lock order).
 */
export async function advanceEdgeSeqs(tx: Db, lockFirst: boolean, ranges: Map<number, [number, number]>): Promise<number> {
  if (lockFirst)
    await tx.query('select 1 from edge_controllers where controller_id = any($1::int[]) order by controller_id for no key update', [[...ranges.keys()]]);
  const { rows } = await tx.query(
    'update edge_controllers e set last_seq = v.s from unnest($1::int[], $2::bigint[], $3::bigint[]) as v(c, f, s) where e.controller_id = v.c and e.last_seq = v.f - 1 returning e.controller_id',
    [[...ranges.keys()], [...ranges.values()].map((r) => r[0]), [...ranges.values()].map((r) => r[1])],
  );
  return rows.length;
}

/**
 * Gatehouse Edge's live lane (issue 47): the numbers of events stored ahead of their controller's last number, noted
 * in their own transaction (a second copy of one fails the transaction: stored once, whatever a server's memory held).
 */
export async function noteEdgeAhead(tx: Db, ahead: { controllerId: number; seq: number }[]): Promise<void> {
  await tx.query('insert into edge_seq_ahead (controller_id, seq) select * from unnest($1::int[], $2::bigint[])', [
    ahead.map((a) => a.controllerId),
    ahead.map((a) => a.seq),
  ]);
}

/** The numbers stored ahead that the controllers' last numbers (`ranges`, moved on) have passed: forgotten, and said
 *  (`controller:seq`) so the caller can refuse a batch that stored one of them a second time. */
export async function passEdgeAhead(tx: Db, ranges: Map<number, [number, number]>): Promise<string[]> {
  const { rows } = await tx.query<{ c: number; s: string }>(
    'delete from edge_seq_ahead a using unnest($1::int[], $2::bigint[]) as v(c, s) where a.controller_id = v.c and a.seq <= v.s returning a.controller_id c, a.seq::text s',
    [[...ranges.keys()], [...ranges.values()].map((r) => r[1])],
  );
  return rows.map((r) => `${r.c}:${r.s}`);
}

/** An alarm a batch raises: its event, client and type; the event of the batch that returned its point to normal, or
 *  a note when it was raised and cleared while its edge controller was offline (both: stored as processed). */
export interface RaisedAlarm {
  event: Pick<Event, 'id' | 'eventCode' | 'eventPointId' | 'time'>;
  clientId: number;
  type: { priority: number; instructions: string };
  clearedBy: number | null;
  note: string | null;
}

/** The batch's alarms stored, each with its "raised" history line. */
export async function insertRaisedAlarms(tx: Db, list: RaisedAlarm[]): Promise<void> {
  await tx.query(
    `insert into alarms (event_id, client_id, event_code, event_point_id, priority, instructions, raised_at, state, processed_at, processed_by, note)
    select e, c, code, pt, pr, ins, at, case when cb is null and nt is null then 'raised' else 'processed' end,
      case when cb is null and nt is null then null else now() end, case when cb is null and nt is null then null else 'system' end,
      coalesce(nt, case when cb is null then null else 'Returned to normal: event ' || cb end)
    from unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::int[], $6::text[], $7::timestamptz[], $8::bigint[], $9::text[])
      as t(e, c, code, pt, pr, ins, at, cb, nt)`,
    [
      list.map((a) => a.event.id),
      list.map((a) => a.clientId),
      list.map((a) => a.event.eventCode),
      list.map((a) => a.event.eventPointId),
      list.map((a) => a.type.priority),
      list.map((a) => a.type.instructions),
      list.map((a) => a.event.time),
      list.map((a) => a.clearedBy),
      list.map((a) => a.note),
    ],
  );
  await tx.query(
    `insert into alarm_history (alarm_id, client_id, action, actor, note, at)
    select e, c, 'raised', null, null, at from unnest($1::bigint[], $2::int[], $3::timestamptz[]) as t(e, c, at)`,
    [list.map((a) => a.event.id), list.map((a) => a.clientId), list.map((a) => a.event.time)],
  );
}

/** Of the open alarms `ids` just raised, those of a shelved source (issue 50) marked shelved, with a history line each;
 *  their ids. */
export async function shelveRaisedAlarms(tx: Db, ids: (number | string)[]): Promise<number[]> {
  const { rows } = await tx.query<{ event_id: string }>(
    `with hid as (update alarms a set shelved = true, shelving_id = s.id from alarm_shelvings s
      where a.event_id = any($1::bigint[]) and a.state <> 'processed' and s.client_id = a.client_id
        and s.event_point_id = a.event_point_id and s.ended_at is null and s.until > now()
      returning a.event_id, a.client_id, s.reason)
    insert into alarm_history (alarm_id, client_id, action, actor, note)
    select event_id, client_id, 'shelved', null, 'Raised while its source is shelved: ' || reason from hid returning alarm_id as event_id`,
    [ids],
  );
  return rows.map((r) => Number(r.event_id));
}

/** The "processed" history line of each alarm the batch raised and returned to normal (or that came cleared offline). */
export async function noteProcessedInBatch(tx: Db, done: RaisedAlarm[]): Promise<void> {
  if (!done.length) return;
  await tx.query(
    `insert into alarm_history (alarm_id, client_id, action, actor, note)
    select e, c, 'processed', 'system', coalesce(nt, 'Returned to normal: event ' || cb)
      from unnest($1::bigint[], $2::int[], $3::bigint[], $4::text[]) as t(e, c, cb, nt)`,
    [done.map((a) => a.event.id), done.map((a) => a.clientId), done.map((a) => a.clearedBy), done.map((a) => a.note)],
  );
}

/** The open alarms stored before the batch (ids below `firstId`) of each point the batch returned to normal processed
 *  by its first such event (`eid`), each with its history line; which (alarm, client). The alarms are locked first in
 *  the order of their ids: two transactions at once (the pipeline's two on PostgreSQL, two servers) returning the same
 *  points in another order locked them in the order of their batches and deadlocked (server/db/lockOrder.test.ts). */
export async function processClearedPoints(
  tx: Db,
  keys: { client: number; point: string; eid: number }[],
  firstId: number,
): Promise<{ event_id: string; client_id: number }[]> {
  await tx.query(
    `select a.event_id from alarms a join unnest($1::int[], $2::text[]) as c(client, point) on a.client_id = c.client and a.event_point_id = c.point
    where a.state <> 'processed' and a.event_id < $3 order by a.event_id for update of a`,
    [keys.map((k) => k.client), keys.map((k) => k.point), firstId],
  );
  const { rows } = await tx.query<{ event_id: string; client_id: number; eid: string }>(
    `update alarms a set state = 'processed', processed_at = now(), processed_by = 'system',
      note = 'Returned to normal: event ' || c.eid
    from unnest($1::int[], $2::text[], $3::bigint[]) as c(client, point, eid)
    where a.client_id = c.client and a.event_point_id = c.point and a.state <> 'processed' and a.event_id < $4
    returning a.event_id, a.client_id, c.eid`,
    [keys.map((k) => k.client), keys.map((k) => k.point), keys.map((k) => k.eid), firstId],
  );
  if (rows.length)
    await tx.query(
      `insert into alarm_history (alarm_id, client_id, action, actor, note)
      select e, c, 'processed', 'system', 'Returned to normal: event ' || cb from unnest($1::bigint[], $2::int[], $3::bigint[]) as t(e, c, cb)`,
      [rows.map((r) => r.event_id), rows.map((r) => r.client_id), rows.map((r) => r.eid)],
    );
  return rows;
}
