// The operators' alarm commands (server/monitor/pipeline.ts): the open alarms and their counts per division,
// Acknowledge, Process with a note (every open alarm of the point), an alarm's history; broadcast on
// /acknowledge/event and /alarmaction, with /alarmcount after every change of the open count.
import { DESTINATIONS, type AcknowledgeUpdate, type AlarmAction, type Event } from '../../contract';
import { divisionCondition } from '../auth/eventScope';
import type { Db } from '../db/db';
import { iso } from '../db/values';
import { EVENT_COLS, eventOfRow, type Publish } from './events';
import { tenant } from '../db/tenant';

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

export class AlarmError extends Error {
  constructor(
    public status: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export function createAlarms(db: Db, publish: Publish) {
  async function openCount(q: Db, clientId: number): Promise<number> {
    const params: unknown[] = [];
    const { rows } = await q.query<{ n: string }>(
      `select count(*)::text n from alarms where ${tenant(params, clientId)} and state <> 'processed' and not shelved`,
      params,
    );
    return Number(rows[0].n);
  }
  /** Open alarms per division of their source (null: of none), so each console hears the count of what it sees. */
  async function openCounts(clientId: number): Promise<{ total: number; byDivision: Record<number, number>; none: number }> {
    const params: unknown[] = [];
    const { rows } = await db.query<{ division_id: number | null; n: string }>(
      `select e.division_id, count(*)::text n from alarms a join events e on e.id = a.event_id
      where ${tenant(params, clientId, 'a')} and a.state <> 'processed' and not a.shelved group by e.division_id`,
      params,
    );
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
    const params: unknown[] = [eventId];
    const { rows } = await q.query<any>(`select * from alarms where event_id = $1 and ${tenant(params, clientId)}`, params);
    if (!rows[0]) throw new AlarmError(404, 'Alarm not found');
    return rows[0];
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
      const params: unknown[] = [];
      const inClient = tenant(params, clientId, 'a'); // $1
      if (divisions) params.push([...divisions]); // $2
      const { rows } = await db.query<any>(
        `select ${EVENT_COLS}, ${MANAGEMENT_COLS} from alarms a join events e on e.id = a.event_id
        where ${inClient} and a.state <> 'processed' and not a.shelved${divisions ? ` and ${divisionCondition(2)}` : ''}
        order by a.priority asc, a.raised_at desc, a.event_id desc`,
        params,
      );
      return rows.map(withManagement);
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
        if (before.state === 'processed') throw new AlarmError(409, 'The alarm is already processed');
        if (before.state === 'acknowledged') return false;
        const params: unknown[] = [eventId];
        const inClient = tenant(params, clientId); // $2
        params.push(actor); // $3
        await tx.query(`update alarms set state = 'acknowledged', acknowledged_at = now(), acknowledged_by = $3 where event_id = $1 and ${inClient}`, params);
        await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor) values ($1,$2,'acknowledged',$3)`, [eventId, clientId, actor]);
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
        if (alarm.state === 'processed') throw new AlarmError(409, 'The alarm is already processed');
        const params: unknown[] = [];
        const inClient = tenant(params, clientId); // $1
        params.push(alarm.event_point_id); // $2
        const { rows } = await tx.query<{ event_id: string; state: string }>(
          `select event_id, state from alarms where ${inClient} and event_point_id = $2 and state <> 'processed'`,
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
      const params: unknown[] = [eventId];
      const { rows } = await db.query<any>(`select * from alarm_history where alarm_id = $1 and ${tenant(params, clientId)} order by id`, params);
      return rows.map((r) => ({
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
