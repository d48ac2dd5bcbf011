// Alarm management (issue 50, ISA-18.2 / IEC 62682; contract/alarmManagement.ts): escalation, forwarding, shelving.
// Nothing is kept in memory: the step an alarm reached is on its row and the next one is due at raised_at + (step + 1)
// × its priority's acknowledge target (alarm settings), so a sweep on any server after a restart finds what is due;
// a step is taken by a conditional update (only from the step it read), so two servers on one PostgreSQL never take
// it twice. A shelving's end is its `until`, found by the same sweep. Every change is in the alarm's history, audited
// (the sweep's as 'system'), told to the consoles on /alarmaction (AlarmAction.change) and, for escalations, to web
// hooks subscribed to alarm.escalated (migration 150's trigger on alarm_history).
import { ALARM_SWEEP_MS, DESTINATIONS, type AlarmAction, type AlarmNotice, type ForwardAlarmBody, type Sentence, type Violation } from '../../contract';
import type { Db } from '../db/db';
import {
  activeClientOperator,
  addEscalationHistory,
  addShelvingHistory,
  alarmEventSummary,
  alarmPointName,
  alarmWithEvent,
  clientOperatorGroup,
  dueEscalations,
  dueShelvingEnds,
  endShelvingNow,
  expireShelving,
  expireStaleShelvings,
  forwardAlarm,
  forwardGroups,
  forwardOperators,
  groupMemberIds,
  insertShelving,
  operatorGroupName,
  runningShelving,
  shelveAlarms,
  takeEscalationStep,
  unshelveShelvingAlarms,
} from '../db/queries/alarmManagement';
import { insertAudit } from '../db/queries/audit';
import { fill } from '../http/kit';
import { ALARM_NOT_FOUND, ALARM_PROCESSED } from '../monitor/alarms';

const BAD_REQUEST = fill('request.bad', 'Bad request', {});
import { iso } from '../db/values';
import { createAlarms } from '../monitor/alarms';
import type { Publish } from '../monitor/events';

export class ManagementError extends Error {
  /** the sentence's key and values, when the message is a sentence with values (fill) */
  readonly code?: string;
  readonly values?: Sentence['values'];
  constructor(
    public status: 400 | 404 | 409,
    said: string | Sentence,
    public violations?: Violation[],
  ) {
    super(typeof said === 'string' ? said : said.message);
    if (typeof said !== 'string') {
      this.code = said.code;
      this.values = said.values;
    }
  }
}

type Audit = (tx: Db, before: unknown, after: unknown, entityId: number) => Promise<void>;

export interface Shelving {
  id: number;
  pointId: string;
  pointName: string | null;
  reason: string;
  minutes: number;
  shelvedBy: string;
  shelvedAt: string;
  until: string;
}

export function createAlarmManagement(db: Db, publish: Publish, o: { log?: (m: string) => void; sweepMs?: number } = {}) {
  const alarms = createAlarms(db, publish);
  const action = (clientId: number, a: AlarmAction) => publish(clientId, DESTINATIONS.alarmAction, a);
  const notify = (clientId: number, users: number[], n: AlarmNotice) => {
    if (users.length) publish(clientId, DESTINATIONS.alarmNotice, n, { users });
  };
  const membersOf = groupMemberIds;

  /** The alarms of a shelving still open, back on the consoles (inside `tx`); their escalation counts from `at` (null: now). */
  async function unshelveAlarms(tx: Db, clientId: number, shelvingId: number, actor: string | null, why: string, at: Date | null): Promise<number> {
    const rows = await unshelveShelvingAlarms(tx, clientId, shelvingId, at);
    for (const r of rows) await addShelvingHistory(tx, r.event_id, clientId, 'unshelved', actor, why);
    return rows.length;
  }

  async function afterUnshelve(clientId: number, pointId: string) {
    action(clientId, { eventPointId: pointId, process: false, change: 'unshelved' });
    publish(clientId, `${DESTINATIONS.changes}/alarmShelvings`, { resource: 'alarmShelvings', id: 0, action: 'update' });
    await alarms.announceCount(clientId);
  }

  /** Escalate every alarm due at `now` by one step. */
  async function escalateDue(now: Date): Promise<number> {
    const rows = await dueEscalations(db, now);
    let n = 0;
    for (const r of rows) {
      const clientId = Number(r.client_id);
      const from = Number(r.escalation_step);
      const step = from + 1;
      const groups: number[] = (r.groups ?? []).map(Number);
      const groupId = groups[from];
      const taken = await db.transaction(async (tx) => {
        if (!(await takeEscalationStep(tx, clientId, r.event_id, step, groupId, from))) return null;
        const name = (await operatorGroupName(tx, groupId)) ?? `group ${groupId}`;
        const note = `Not acknowledged within ${step * Number(r.target)} min: escalated to ${name} (step ${step} of ${groups.length})`;
        await addEscalationHistory(tx, r.event_id, clientId, note, step, groupId);
        await insertAudit(tx, {
          clientId,
          actor: 'system',
          action: 'escalate',
          entity: 'alarm',
          entityId: Number(r.event_id),
          before: { escalationStep: from },
          after: { escalationStep: step, operatorGroupId: groupId, operatorGroup: name },
        });
        const ev = await alarmEventSummary(tx, r.event_id);
        return { name, note, members: await membersOf(tx, groupId), ev };
      });
      if (!taken) continue;
      n++;
      action(clientId, {
        eventPointId: r.event_point_id,
        process: false,
        change: 'escalated',
        alarmId: Number(r.event_id),
        escalationStep: step,
        escalatedTo: taken.name,
      });
      notify(clientId, taken.members, {
        notificationId: 0,
        name: `Escalated to ${taken.name} (step ${step})`,
        eventId: Number(r.event_id),
        priority: Number(r.priority),
        message: taken.ev?.message ?? taken.note,
        at: iso(taken.ev?.at ?? now)!,
        pointName: taken.ev?.event_point_name ?? null,
      });
    }
    return n;
  }

  /** End every shelving whose time is up at `now`; its alarms still open come back to the consoles. */
  async function expireShelvings(now: Date): Promise<number> {
    const rows = await dueShelvingEnds(db, now);
    let n = 0;
    for (const r of rows) {
      const clientId = Number(r.client_id);
      const done = await db.transaction(async (tx) => {
        if (!(await expireShelving(tx, clientId, r.id))) return false;
        const back = await unshelveAlarms(tx, clientId, r.id, 'system', 'The shelving ended by itself', new Date(r.until));
        await insertAudit(tx, {
          clientId,
          actor: 'system',
          action: 'unshelve',
          entity: 'alarmShelving',
          entityId: r.id,
          before: { ended: false },
          after: { ended: true, endReason: 'expired', alarmsBack: back },
        });
        return true;
      });
      if (!done) continue;
      n++;
      await afterUnshelve(clientId, r.event_point_id);
    }
    return n;
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  const api = {
    /** One look for what is due at `now` (the server's clock by default; tests give theirs). */
    async sweep(now: Date = new Date()): Promise<{ escalated: number; unshelved: number }> {
      const unshelved = await expireShelvings(now);
      const escalated = await escalateDue(now);
      return { escalated, unshelved };
    },

    async shelve(clientId: number, pointId: string, minutes: number, reason: string, actor: string, audit: Audit): Promise<Shelving> {
      const shelving = await db.transaction(async (tx) => {
        const known = await alarmPointName(tx, clientId, pointId);
        if (!known)
          throw new ManagementError(400, BAD_REQUEST, [{ field: 'pointId', ...fill('alarm.pointRaisedNone', 'has raised no alarm in this client', {}) }]);
        // a shelving whose time is up but not yet swept ends now, so the source can be shelved again
        for (const s of await expireStaleShelvings(tx, clientId, pointId))
          await unshelveAlarms(tx, clientId, s.id, 'system', 'The shelving ended by itself', new Date(s.until));
        const running = await runningShelving(tx, clientId, pointId);
        if (running)
          throw new ManagementError(409, fill('alarm.alreadyShelved', 'This source is already shelved until {until}', { until: iso(running.until)! }));
        const row = await insertShelving(tx, { clientId, pointId, pointName: known.name, reason, minutes, actor });
        const hidden = await shelveAlarms(tx, clientId, pointId, row.id);
        for (const h of hidden) await addShelvingHistory(tx, h.event_id, clientId, 'shelved', actor, `Shelved for ${minutes} min: ${reason}`);
        const out: Shelving = {
          id: Number(row.id),
          pointId,
          pointName: row.point_name ?? null,
          reason,
          minutes,
          shelvedBy: actor,
          shelvedAt: iso(row.shelved_at)!,
          until: iso(row.until)!,
        };
        await audit(tx, null, { ...out, alarms: hidden.map((h) => Number(h.event_id)) }, out.id);
        return out;
      });
      action(clientId, { eventPointId: pointId, process: false, change: 'shelved', note: reason });
      publish(clientId, `${DESTINATIONS.changes}/alarmShelvings`, { resource: 'alarmShelvings', id: shelving.id, action: 'create' });
      await alarms.announceCount(clientId);
      return shelving;
    },

    /** End a running shelving now (the catalogue's `end` action, inside its transaction). */
    async endShelving(tx: Db, clientId: number, shelvingId: number, actor: string): Promise<number> {
      if (!(await endShelvingNow(tx, clientId, shelvingId, actor)))
        throw new ManagementError(409, fill('alarm.shelvingEnded', 'The shelving has already ended', {}));
      return unshelveAlarms(tx, clientId, shelvingId, actor, `Shelving ended by ${actor}`, null);
    },
    afterUnshelve,

    async forward(clientId: number, eventId: number, b: ForwardAlarmBody, actor: string, audit: Audit) {
      const to = (b.userId ?? null) !== null ? 'user' : (b.groupId ?? null) !== null ? 'group' : null;
      if (!to || ((b.userId ?? null) !== null && (b.groupId ?? null) !== null))
        throw new ManagementError(400, BAD_REQUEST, [
          { field: 'userId', ...fill('alarm.forwardToOne', 'name an operator or an operator group, one of them', {}) },
        ]);
      const note = b.note.trim();
      const done = await db.transaction(async (tx) => {
        const alarm = await alarmWithEvent(tx, clientId, eventId);
        if (!alarm) throw new ManagementError(404, ALARM_NOT_FOUND);
        if (alarm.state === 'processed') throw new ManagementError(409, ALARM_PROCESSED);
        let name: string, users: number[];
        if (to === 'user') {
          const u = await activeClientOperator(tx, clientId, b.userId);
          if (!u) throw new ManagementError(400, BAD_REQUEST, [{ field: 'userId', ...fill('operator.notOfClient', 'is not an operator of this client', {}) }]);
          name = u.name || u.username;
          users = [Number(u.id)];
        } else {
          const g = await clientOperatorGroup(tx, clientId, b.groupId);
          if (!g)
            throw new ManagementError(400, BAD_REQUEST, [
              { field: 'groupId', ...fill('operatorGroup.notOfClient', 'is not an operator group of this client', {}) },
            ]);
          name = g.name;
          users = await membersOf(tx, Number(g.id));
        }
        await forwardAlarm(tx, clientId, eventId, to === 'user' ? b.userId : null, to === 'group' ? b.groupId : null, actor, `To ${name}: ${note}`);
        await audit(
          tx,
          { forwardedToUserId: alarm.forwarded_to_user_id ?? null, forwardedToGroupId: alarm.forwarded_to_group_id ?? null },
          { forwardedTo: name, userId: to === 'user' ? b.userId : null, groupId: to === 'group' ? b.groupId : null, note },
          eventId,
        );
        return { alarm, name, users };
      });
      action(clientId, { eventPointId: done.alarm.event_point_id, process: false, change: 'forwarded', alarmId: eventId, forwardedTo: done.name, note });
      notify(clientId, done.users, {
        notificationId: 0,
        name: `Forwarded by ${actor}: ${note}`,
        eventId,
        priority: Number(done.alarm.priority),
        message: done.alarm.message,
        at: iso(done.alarm.at)!,
        pointName: done.alarm.event_point_name ?? null,
      });
      return { id: eventId, forwardedTo: done.name, note };
    },

    async forwardTargets(clientId: number) {
      const ops = await forwardOperators(db, clientId);
      const groups = await forwardGroups(db, clientId);
      return {
        operators: ops.map((r) => ({ id: Number(r.id), name: r.name || r.username, username: r.username })),
        groups: groups.map((r) => ({ id: Number(r.id), name: r.name })),
      };
    },

    start() {
      if (timer) return;
      const tick = () => {
        if (running) return;
        running = api
          .sweep()
          .catch((e) => o.log?.(`alarm sweep: ${(e as Error).message}`))
          .finally(() => {
            running = null;
          });
      };
      timer = setInterval(tick, o.sweepMs ?? ALARM_SWEEP_MS);
      timer.unref?.();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
  return api;
}
export type AlarmManagement = ReturnType<typeof createAlarmManagement>;
