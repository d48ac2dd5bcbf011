// The operators' alarm commands (server/monitor/pipeline.ts): the open alarms and their counts per division,
// Acknowledge, Process with a note (every open alarm of the point), an alarm's history; broadcast on
// /acknowledge/event and /alarmaction, with /alarmcount after every change of the open count.
import { DESTINATIONS, fill, type AcknowledgeUpdate, type AlarmAction, type Event, type Sentence } from '../../contract';
import type { Db } from '../db/db';
import {
  acknowledgeAlarm,
  alarmHistoryRows,
  alarmRow,
  noteAlarmViewed,
  openAlarmCount,
  openAlarmCountsByDivision,
  openAlarmRows,
  processPointAlarms,
} from '../db/queries/monitor';
import { iso } from '../db/values';
import { EVENT_COLS, eventOfRow, type Publish } from './events';

/** Issue 50: an open alarm's escalation and forwarding, beside its event (server/alarms/). */
const MANAGEMENT_COLS = `a.escalation_step, (select g.name from operator_groups g where g.id = a.escalated_to_group_id) as escalated_to,
  coalesce((select coalesce(nullif(u.name, ''), u.username) from users u where u.id = a.forwarded_to_user_id),
    (select g.name from operator_groups g where g.id = a.forwarded_to_group_id)) as forwarded_to,
  (select h.note from alarm_history h where h.alarm_id = a.event_id and h.action = 'forwarded' order by h.id desc limit 1) as forward_note`;
function withManagement(r: any): Event {
  const e = eventOfRow(r);
  if (r.escalation_step > 0) Object.assign(e, { escalationStep: Number(r.escalation_step), escalatedTo: r.escalated_to ?? null });
  if (r.forwarded_to) Object.assign(e, { forwardedTo: r.forwarded_to, forwardNote: r.forward_note ?? null });
  return e;
}

/** A refusal of an alarm's handling, said with its key (issue 48: server/http/alarms.ts answers it with its sentence). */
export class AlarmError extends Error {
  readonly code: string;
  readonly values: Sentence['values'];
  constructor(
    public status: 404 | 409,
    said: Sentence,
  ) {
    super(said.message);
    this.code = said.code;
    this.values = said.values;
  }
}
export const ALARM_NOT_FOUND = fill('alarm.notFound', 'Alarm not found', {});
export const ALARM_PROCESSED = fill('alarm.alreadyProcessed', 'The alarm is already processed', {});

export function createAlarms(db: Db, publish: Publish) {
  const openCount = openAlarmCount;
  /** Open alarms per division of their source (null: of none), so each console hears the count of what it sees. */
  async function openCounts(clientId: number): Promise<{ total: number; byDivision: Record<number, number>; none: number }> {
    const rows = await openAlarmCountsByDivision(db, clientId);
    const byDivision: Record<number, number> = {};
    let none = 0;
    for (const r of rows) {
      if (r.division_id === null) none += Number(r.n);
      else byDivision[Number(r.division_id)] = Number(r.n);
    }
    return { total: Object.values(byDivision).reduce((a, b) => a + b, none), byDivision, none };
  }
  async function announceCount(clientId: number) {
    const c = await openCounts(clientId);
    // the whole client's count; a console of some divisions hears the sum of theirs (the broker works it out)
    publish(clientId, DESTINATIONS.alarmCount, { count: c.total }, { counts: { byDivision: c.byDivision, none: c.none } });
  }

  async function load(q: Db, clientId: number, eventId: number) {
    const row = await alarmRow(q, clientId, eventId);
    if (!row) throw new AlarmError(404, ALARM_NOT_FOUND);
    return row;
  }

  return {
    announceCount,
    openCount: (clientId: number) => openCount(db, clientId),
    /** The open alarms of these divisions and of none (null: all of the client). */
    async openCountIn(clientId: number, divisions: readonly number[] | null): Promise<number> {
      if (!divisions) return openCount(db, clientId);
      const c = await openCounts(clientId);
      return divisions.reduce((n, d) => n + (c.byDivision[d] ?? 0), c.none);
    },

    /** The open alarms, most urgent first; with `divisions`, only those of these divisions and of none (issue 10). */
    async openAlarms(clientId: number, divisions: readonly number[] | null = null): Promise<Event[]> {
      return (await openAlarmRows(db, clientId, divisions, EVENT_COLS, MANAGEMENT_COLS)).map(withManagement);
    },

    /** Acknowledge (idempotent for an acknowledged alarm, refused for a processed one). `audit` runs inside the transaction. */
    async acknowledge(
      clientId: number,
      eventId: number,
      actor: string,
      audit: (tx: Db, before: unknown, after: unknown) => Promise<void>,
    ): Promise<AcknowledgeUpdate> {
      const changed = await db.transaction(async (tx) => {
        const before = await load(tx, clientId, eventId);
        if (before.state === 'processed') throw new AlarmError(409, ALARM_PROCESSED);
        if (before.state === 'acknowledged') return false;
        await acknowledgeAlarm(tx, clientId, eventId, actor);
        await audit(tx, { state: before.state }, { state: 'acknowledged' });
        return true;
      });
      const update = { id: eventId, acknowledge: true };
      if (changed) publish(clientId, DESTINATIONS.acknowledge, update);
      return update;
    },

    /** Process with a note: every open alarm of the same point (§4: the action removes the point's alerts). */
    async process(
      clientId: number,
      eventId: number,
      actor: string,
      note: string,
      audit: (tx: Db, before: unknown, after: unknown) => Promise<void>,
    ): Promise<AlarmAction> {
      const action = await db.transaction(async (tx) => {
        const alarm = await load(tx, clientId, eventId);
        if (alarm.state === 'processed') throw new AlarmError(409, ALARM_PROCESSED);
        const rows = await processPointAlarms(tx, clientId, alarm.event_point_id, actor, note);
        await audit(tx, { state: alarm.state, eventPointId: alarm.event_point_id }, { state: 'processed', note, alarms: rows.map((r) => Number(r.event_id)) });
        return { eventPointId: alarm.event_point_id as string, process: true, note };
      });
      publish(clientId, DESTINATIONS.alarmAction, action);
      await announceCount(clientId);
      return action;
    },

    async history(clientId: number, eventId: number, viewer: string | null) {
      await load(db, clientId, eventId);
      if (viewer) await noteAlarmViewed(db, clientId, eventId, viewer);
      return (await alarmHistoryRows(db, clientId, eventId)).map((r) => ({
        id: Number(r.id),
        alarmId: Number(r.alarm_id),
        action: r.action,
        actor: r.actor ?? null,
        note: r.note ?? null,
        at: iso(r.at)!,
        ...(r.step != null ? { step: Number(r.step) } : {}),
      }));
    },
  };
}
