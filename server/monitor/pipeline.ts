// The event pipeline: every event is persisted (append-only, monotonically increasing id) before it is published
// to its tenant. An alert event raises an alarm with its type's priority and instructions; a non-alert event for
// the same point processes that point's open alarms (§4, mirrored on the server so every console sees one truth).
// Acknowledge and process are the operators' commands, broadcast on /acknowledge/event and /alarmaction, with
// /alarmcount after every change of the open count.
import {
  DEFAULT_ALARM_TYPES, DESTINATIONS, statusOfCode, type AcknowledgeUpdate, type AlarmAction, type Event,
} from '../../contract';
import type { Db } from '../db/db';
import { iso } from '../http/common';

export type Publish = (clientId: number, destination: string, body: unknown) => void;

export interface EventInput {
  eventCode: number;
  sourceId: string;
  sourceName: string | null;
  pointId?: string;
  pointName?: string | null;
  message: string;
}

const EVENT_COLS = `e.id, e.client_id, e.event_code, e.event_source_id, e.event_source_name, e.event_point_id, e.event_point_name,
  e.message, e.alert, e.priority, e.at, a.state as alarm_state, a.instructions`;

export function eventOfRow(r: any): Event {
  return {
    id: Number(r.id),
    eventCode: r.event_code,
    eventSourceId: r.event_source_id,
    eventSourceName: r.event_source_name ?? null,
    eventPointId: r.event_point_id,
    eventPointName: r.event_point_name ?? null,
    message: r.message,
    alert: r.alert,
    acknowledge: r.alarm_state === 'acknowledged' || r.alarm_state === 'processed',
    process: r.alarm_state === 'processed',
    eventPoint: [{ id: r.event_point_id, name: r.event_point_name ?? null }],
    time: iso(r.at)!,
    priority: r.priority,
    instructions: r.instructions ?? null,
  };
}

/** Fill the default alarm types (client_id null) from the contract; existing rows (maybe edited) are kept. */
export async function ensureAlarmTypes(db: Db): Promise<void> {
  for (const t of DEFAULT_ALARM_TYPES) {
    await db.query('insert into alarm_types (client_id, event_code, name, priority, instructions) values (null,$1,$2,$3,$4) on conflict do nothing',
      [t.eventCode, t.name, t.priority, t.instructions]);
  }
}

export class AlarmError extends Error {
  constructor(public status: 404 | 409, message: string) { super(message); }
}

export function createPipeline(db: Db, publish: Publish) {
  async function openCount(q: Db, clientId: number): Promise<number> {
    const { rows } = await q.query<{ n: string }>(`select count(*)::text n from alarms where client_id = $1 and state <> 'processed'`, [clientId]);
    return Number(rows[0].n);
  }
  async function announceCount(clientId: number) {
    publish(clientId, DESTINATIONS.alarmCount, { count: await openCount(db, clientId) });
  }

  /** Persist one event (and its alarm effects), then publish it. Resolves with the stored event. */
  async function record(clientId: number, input: EventInput): Promise<Event> {
    const pointId = input.pointId ?? input.sourceId;
    const pointName = input.pointName === undefined ? input.sourceName : input.pointName;
    const { event, cleared } = await db.transaction(async (tx) => {
      const type = await tx.query<{ priority: number; instructions: string }>(
        'select priority, instructions from alarm_types where event_code = $1 and (client_id = $2 or client_id is null) order by client_id nulls last limit 1',
        [input.eventCode, clientId]);
      const alarmType = type.rows[0];
      const { rows } = await tx.query<any>(`insert into events (client_id, event_code, event_source_id, event_source_name, event_point_id, event_point_name, message, alert, priority)
        values ($1,$2,$3,$4,$5,$6,$7,$8,$9) returning *`,
        [clientId, input.eventCode, input.sourceId, input.sourceName, pointId, pointName, input.message, !!alarmType, alarmType?.priority ?? 100]);
      const row = rows[0];
      let cleared = 0;
      if (alarmType) {
        await tx.query(`insert into alarms (event_id, client_id, event_code, event_point_id, priority, instructions, raised_at) values ($1,$2,$3,$4,$5,$6,$7)`,
          [row.id, clientId, input.eventCode, pointId, alarmType.priority, alarmType.instructions, row.at]);
        await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor, note, at) values ($1,$2,'raised',null,null,$3)`, [row.id, clientId, row.at]);
      } else {
        // §4: a non-alert event for the same point clears its alerts; on the server that processes them
        const done = await tx.query<{ event_id: string }>(`update alarms set state = 'processed', processed_at = now(), processed_by = 'system', note = $3
          where client_id = $1 and event_point_id = $2 and state <> 'processed' returning event_id`, [clientId, pointId, `Returned to normal: event ${row.id}`]);
        for (const d of done.rows) {
          await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor, note) values ($1,$2,'processed','system',$3)`, [d.event_id, clientId, `Returned to normal: event ${row.id}`]);
        }
        cleared = done.rows.length;
      }
      return { event: eventOfRow({ ...row, alarm_state: alarmType ? 'raised' : null, instructions: alarmType?.instructions ?? null }), cleared };
    });
    publish(clientId, DESTINATIONS.events, event);
    const code = statusOfCode(event.eventCode);
    if (code) publish(clientId, DESTINATIONS.hardware, { id: event.eventSourceId, name: event.eventSourceName, status: code.status });
    if (event.alert || cleared) await announceCount(clientId);
    return event;
  }

  async function load(q: Db, clientId: number, eventId: number) {
    const { rows } = await q.query<any>('select * from alarms where event_id = $1 and client_id = $2', [eventId, clientId]);
    if (!rows[0]) throw new AlarmError(404, 'Alarm not found');
    return rows[0];
  }

  return {
    record,
    openCount: (clientId: number) => openCount(db, clientId),

    async openAlarms(clientId: number): Promise<Event[]> {
      const { rows } = await db.query<any>(`select ${EVENT_COLS} from alarms a join events e on e.id = a.event_id
        where a.client_id = $1 and a.state <> 'processed' order by a.priority asc, a.raised_at desc, a.event_id desc`, [clientId]);
      return rows.map(eventOfRow);
    },

    /** Acknowledge (idempotent for an acknowledged alarm, refused for a processed one). `audit` runs inside the transaction. */
    async acknowledge(clientId: number, eventId: number, actor: string, audit: (tx: Db, before: unknown, after: unknown) => Promise<void>): Promise<AcknowledgeUpdate> {
      const changed = await db.transaction(async (tx) => {
        const before = await load(tx, clientId, eventId);
        if (before.state === 'processed') throw new AlarmError(409, 'The alarm is already processed');
        if (before.state === 'acknowledged') return false;
        await tx.query(`update alarms set state = 'acknowledged', acknowledged_at = now(), acknowledged_by = $3 where event_id = $1 and client_id = $2`, [eventId, clientId, actor]);
        await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor) values ($1,$2,'acknowledged',$3)`, [eventId, clientId, actor]);
        await audit(tx, { state: before.state }, { state: 'acknowledged' });
        return true;
      });
      const update = { id: eventId, acknowledge: true };
      if (changed) publish(clientId, DESTINATIONS.acknowledge, update);
      return update;
    },

    /** Process with a note: every open alarm of the same point (§4: the action removes the point's alerts). */
    async process(clientId: number, eventId: number, actor: string, note: string, audit: (tx: Db, before: unknown, after: unknown) => Promise<void>): Promise<AlarmAction> {
      const action = await db.transaction(async (tx) => {
        const alarm = await load(tx, clientId, eventId);
        if (alarm.state === 'processed') throw new AlarmError(409, 'The alarm is already processed');
        const { rows } = await tx.query<{ event_id: string; state: string }>(`select event_id, state from alarms where client_id = $1 and event_point_id = $2 and state <> 'processed'`, [clientId, alarm.event_point_id]);
        await tx.query(`update alarms set state = 'processed', processed_at = now(), processed_by = $3, note = $4 where client_id = $1 and event_point_id = $2 and state <> 'processed'`,
          [clientId, alarm.event_point_id, actor, note]);
        for (const r of rows) await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor, note) values ($1,$2,'processed',$3,$4)`, [r.event_id, clientId, actor, note]);
        await audit(tx, { state: alarm.state, eventPointId: alarm.event_point_id }, { state: 'processed', note, alarms: rows.map((r) => Number(r.event_id)) });
        return { eventPointId: alarm.event_point_id as string, process: true, note };
      });
      publish(clientId, DESTINATIONS.alarmAction, action);
      await announceCount(clientId);
      return action;
    },

    async history(clientId: number, eventId: number, viewer: string | null) {
      await load(db, clientId, eventId);
      if (viewer) await db.query(`insert into alarm_history (alarm_id, client_id, action, actor) values ($1,$2,'viewed',$3)`, [eventId, clientId, viewer]);
      const { rows } = await db.query<any>('select * from alarm_history where alarm_id = $1 and client_id = $2 order by id', [eventId, clientId]);
      return rows.map((r) => ({ id: Number(r.id), alarmId: Number(r.alarm_id), action: r.action, actor: r.actor ?? null, note: r.note ?? null, at: iso(r.at)! }));
    },
  };
}
export type Pipeline = ReturnType<typeof createPipeline>;
