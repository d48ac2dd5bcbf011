// The monitor room's queries (server/monitor: the event pipeline's sources, the alarms and their notices; issue 48: a
// room's SQL in the queries room). The pipeline's batch statements are in ./pipeline.ts. Every query names the client
// (server/db/tenant.ts) but the default alarm types', which are no client's.
import { divisionCondition } from '../../auth/eventScope';
import type { Db } from '../db';
import { tenant } from '../tenant';

/** What the division of an event's source is read from (server/monitor/scopes.ts): the client's doors, controllers and
 *  hardware records, each with its division or controller. */
export async function sourceScopeRows(db: Db, clientId: number) {
  const params: unknown[] = [];
  const inClient = tenant(params, clientId);
  const q = async <T>(sql: string) => (await db.query<T>(sql, params)).rows;
  const doors = await q<{ id: number; division_id: number | null }>(`select id, division_id from doors where ${inClient}`);
  const controllers = await q<{ id: number; division_id: number | null }>(`select id, division_id from controllers where ${inClient}`);
  const records = (table: 'inputs' | 'outputs' | 'card_readers') =>
    q<{ id: number; controller_id: number | null }>(`select id, controller_id from ${table} where ${inClient}`);
  return { doors, controllers, inputs: await records('inputs'), outputs: await records('outputs'), cardReaders: await records('card_readers') };
}

/** The client's enabled alarm notifications with an operator group, and the group's members. */
export async function alarmNotifications(db: Db, clientId: number): Promise<{ id: number; name: string; maxPriority: number; users: number[] }[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ id: number; name: string; max_priority: number; users: number[] | null }>(
    `select n.id, n.name, n.max_priority, array_agg(m.user_id order by m.user_id) filter (where m.user_id is not null) as users
       from alarm_notifications n left join operator_group_members m on m.group_id = n.operator_group_id
      where ${tenant(params, clientId, 'n')} and n.enabled and n.operator_group_id is not null
      group by n.id, n.name, n.max_priority order by n.id`,
    params,
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name, maxPriority: Number(r.max_priority), users: (r.users ?? []).map(Number) }));
}

/** The default alarm types (client_id null) written when missing; rows there (maybe edited) are kept. */
export async function ensureDefaultAlarmType(db: Db, t: { eventCode: number; name: string; priority: number; instructions: string }): Promise<void> {
  await db.query('insert into alarm_types (client_id, event_code, name, priority, instructions) values (null,$1,$2,$3,$4) on conflict do nothing', [
    t.eventCode,
    t.name,
    t.priority,
    t.instructions,
  ]);
}

/** Every alarm type, the defaults (client_id null) and every client's. */
export async function allAlarmTypes(db: Db): Promise<{ client_id: number | null; event_code: number; priority: number; instructions: string }[]> {
  const { rows } = await db.query<{ client_id: number | null; event_code: number; priority: number; instructions: string }>(
    'select client_id, event_code, priority, instructions from alarm_types',
  );
  return rows;
}

// ---------- the operators' alarm commands (server/monitor/alarms.ts) ----------

/** The client's open alarms (neither processed nor shelved). */
export async function openAlarmCount(q: Db, clientId: number): Promise<number> {
  const params: unknown[] = [];
  const { rows } = await q.query<{ n: string }>(
    `select count(*)::text n from alarms where ${tenant(params, clientId)} and state <> 'processed' and not shelved`,
    params,
  );
  return Number(rows[0].n);
}

/** The client's open alarms per division of their event (null: of none). */
export async function openAlarmCountsByDivision(db: Db, clientId: number): Promise<{ division_id: number | null; n: string }[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ division_id: number | null; n: string }>(
    `select e.division_id, count(*)::text n from alarms a join events e on e.id = a.event_id
      where ${tenant(params, clientId, 'a')} and a.state <> 'processed' and not a.shelved group by e.division_id`,
    params,
  );
  return rows;
}

/** The client's alarm of event `eventId` (its row), if any. */
export async function alarmRow(q: Db, clientId: number, eventId: number): Promise<any | undefined> {
  const params: unknown[] = [eventId];
  const { rows } = await q.query<any>(`select * from alarms where event_id = $1 and ${tenant(params, clientId)}`, params);
  return rows[0];
}

/** The client's open alarms with their events (`eventCols`) and management (`managementCols`), most urgent first; with
 *  `divisions`, only those of these divisions and of none. */
export async function openAlarmRows(db: Db, clientId: number, divisions: readonly number[] | null, eventCols: string, managementCols: string): Promise<any[]> {
  const params: unknown[] = [];
  const inClient = tenant(params, clientId, 'a'); // $1
  if (divisions) params.push([...divisions]); // $2
  const { rows } = await db.query<any>(
    `select ${eventCols}, ${managementCols} from alarms a join events e on e.id = a.event_id
      where ${inClient} and a.state <> 'processed' and not a.shelved${divisions ? ` and ${divisionCondition(2)}` : ''}
      order by a.priority asc, a.raised_at desc, a.event_id desc`,
    params,
  );
  return rows;
}

/** Alarm `eventId` acknowledged by `actor`, with its history line. */
export async function acknowledgeAlarm(tx: Db, clientId: number, eventId: number, actor: string): Promise<void> {
  const params: unknown[] = [eventId];
  const inClient = tenant(params, clientId); // $2
  params.push(actor); // $3
  await tx.query(`update alarms set state = 'acknowledged', acknowledged_at = now(), acknowledged_by = $3 where event_id = $1 and ${inClient}`, params);
  await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor) values ($1,$2,'acknowledged',$3)`, [eventId, clientId, actor]);
}

/** Every open alarm of the client's point `pointId` processed by `actor` with `note`, each with its history line; the
 *  alarms it processed (their event ids and states before). They are locked first, in the order of their ids, the order
 *  the event pipeline locks the alarms it returns to normal in (pipeline.ts processClearedPoints; docs/ARCHITECTURE.md). */
export async function processPointAlarms(
  tx: Db,
  clientId: number,
  pointId: string,
  actor: string,
  note: string,
): Promise<{ event_id: string; state: string }[]> {
  const params: unknown[] = [];
  const inClient = tenant(params, clientId); // $1
  params.push(pointId); // $2
  const { rows } = await tx.query<{ event_id: string; state: string }>(
    `select event_id, state from alarms where ${inClient} and event_point_id = $2 and state <> 'processed' order by event_id for update`,
    params,
  );
  await tx.query(
    `update alarms set state = 'processed', processed_at = now(), processed_by = $3, note = $4 where ${inClient} and event_point_id = $2 and state <> 'processed'`,
    [...params, actor, note],
  );
  for (const r of rows)
    await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor, note) values ($1,$2,'processed',$3,$4)`, [
      r.event_id,
      clientId,
      actor,
      note,
    ]);
  return rows;
}

/** `viewer` looked at alarm `eventId`'s history (a history line of its own). */
export async function noteAlarmViewed(db: Db, clientId: number, eventId: number, viewer: string): Promise<void> {
  await db.query(`insert into alarm_history (alarm_id, client_id, action, actor) values ($1,$2,'viewed',$3)`, [eventId, clientId, viewer]);
}

/** Alarm `eventId`'s history lines, oldest first. */
export async function alarmHistoryRows(db: Db, clientId: number, eventId: number): Promise<any[]> {
  const params: unknown[] = [eventId];
  const { rows } = await db.query<any>(`select * from alarm_history where alarm_id = $1 and ${tenant(params, clientId)} order by id`, params);
  return rows;
}
