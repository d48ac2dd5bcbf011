// Alarm management (issue 50, ISA-18.2 / IEC 62682; contract/alarmManagement.ts): escalation, forwarding, shelving.
// Nothing is kept in memory: the step an alarm reached is on its row and the next one is due at raised_at + (step + 1)
// × its priority's acknowledge target (alarm settings), so a sweep on any server after a restart finds what is due;
// a step is taken by a conditional update (only from the step it read), so two servers on one PostgreSQL never take
// it twice. A shelving's end is its `until`, found by the same sweep. Every change is in the alarm's history, audited
// (the sweep's as 'system'), told to the consoles on /alarmaction (AlarmAction.change) and, for escalations, to web
// hooks subscribed to alarm.escalated (migration 150's trigger on alarm_history).
import { ALARM_SWEEP_MS, DESTINATIONS, type AlarmAction, type AlarmNotice, type ForwardAlarmBody, type Sentence, type Violation } from '../../contract';
import { ALARM_TARGET_PRIORITIES } from '../../contract/alarmHandling';
import type { Db } from '../db/db';
import { insertAudit } from '../db/queries/audit';
import { fill } from '../http/kit';
import { iso } from '../db/values';
import { tenant } from '../db/tenant';
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

/** The acknowledge target of an alarm `a` in minutes, from its client's settings `s`. */
const ACK_MINUTES = `(case least(greatest(a.priority, 1), 4) ${ALARM_TARGET_PRIORITIES.map((n) => `when ${n} then s.ack_p${n}_minutes`).join(' ')} end)`;
const GROUPS = `array_remove(array[s.escalate_group1_id, s.escalate_group2_id, s.escalate_group3_id], null)`;

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
  async function membersOf(q: Db, groupId: number): Promise<number[]> {
    const { rows } = await q.query<{ user_id: number }>('select user_id from operator_group_members where group_id = $1 order by user_id', [groupId]);
    return rows.map((r) => Number(r.user_id));
  }

  /** The alarms of a shelving still open, back on the consoles (inside `tx`); their escalation counts from `at` (null: now). */
  async function unshelveAlarms(tx: Db, clientId: number, shelvingId: number, actor: string | null, why: string, at: Date | null): Promise<number> {
    const params: unknown[] = [shelvingId, at];
    const { rows } = await tx.query<{ event_id: string }>(
      `update alarms set shelved = false, escalate_from = coalesce($2::timestamptz, now()) where shelving_id = $1 and shelved and ${tenant(params, clientId)} returning event_id`,
      params,
    );
    for (const r of rows)
      await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor, note) values ($1,$2,'unshelved',$3,$4)`, [
        r.event_id,
        clientId,
        actor,
        why,
      ]);
    return rows.length;
  }

  async function afterUnshelve(clientId: number, pointId: string) {
    action(clientId, { eventPointId: pointId, process: false, change: 'unshelved' });
    publish(clientId, `${DESTINATIONS.changes}/alarmShelvings`, { resource: 'alarmShelvings', id: 0, action: 'update' });
    await alarms.announceCount(clientId);
  }

  /** Escalate every alarm due at `now` by one step. */
  async function escalateDue(now: Date): Promise<number> {
    const { rows } = await db.query<any>(
      `select a.event_id, a.client_id, a.escalation_step, a.event_point_id, a.priority, ${ACK_MINUTES} as target, ${GROUPS} as groups
         from alarms a join alarm_settings s on s.client_id = a.client_id
        where a.state = 'raised' and not a.shelved and a.escalation_step < cardinality(${GROUPS})
          and coalesce(a.escalate_from, a.raised_at) + (a.escalation_step + 1) * ${ACK_MINUTES} * interval '1 minute' <= $1
        order by a.raised_at, a.event_id limit 500`,
      [now],
    );
    let n = 0;
    for (const r of rows) {
      const clientId = Number(r.client_id);
      const from = Number(r.escalation_step);
      const step = from + 1;
      const groups: number[] = (r.groups ?? []).map(Number);
      const groupId = groups[from];
      const taken = await db.transaction(async (tx) => {
        const params: unknown[] = [r.event_id, step, groupId, from];
        const up = await tx.query<{ event_id: string }>(
          `update alarms set escalation_step = $2, escalated_to_group_id = $3
            where event_id = $1 and escalation_step = $4 and state = 'raised' and not shelved and ${tenant(params, clientId)} returning event_id`,
          params,
        );
        if (!up.rows.length) return null;
        const g = await tx.query<{ name: string }>('select name from operator_groups where id = $1', [groupId]);
        const name = g.rows[0]?.name ?? `group ${groupId}`;
        const note = `Not acknowledged within ${step * Number(r.target)} min: escalated to ${name} (step ${step} of ${groups.length})`;
        await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor, note, step, to_group_id) values ($1,$2,'escalated','system',$3,$4,$5)`, [
          r.event_id,
          clientId,
          note,
          step,
          groupId,
        ]);
        await insertAudit(tx, {
          clientId,
          actor: 'system',
          action: 'escalate',
          entity: 'alarm',
          entityId: Number(r.event_id),
          before: { escalationStep: from },
          after: { escalationStep: step, operatorGroupId: groupId, operatorGroup: name },
        });
        const ev = await tx.query<{ message: string; event_point_name: string | null; at: Date }>(
          'select message, event_point_name, at from events where id = $1',
          [r.event_id],
        );
        return { name, note, members: await membersOf(tx, groupId), ev: ev.rows[0] };
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
    const { rows } = await db.query<{ id: number; client_id: number; event_point_id: string; until: Date }>(
      `select id, client_id, event_point_id, until from alarm_shelvings where ended_at is null and until <= $1 order by until, id limit 500`,
      [now],
    );
    let n = 0;
    for (const r of rows) {
      const clientId = Number(r.client_id);
      const done = await db.transaction(async (tx) => {
        const params: unknown[] = [r.id];
        const up = await tx.query(
          `update alarm_shelvings set ended_at = until, end_reason = 'expired', updated_at = now() where id = $1 and ended_at is null and ${tenant(params, clientId)} returning id`,
          params,
        );
        if (!up.rows.length) return false;
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
        const params: unknown[] = [pointId];
        const inClient = tenant(params, clientId, 'a');
        const known = await tx.query<{ name: string | null }>(
          `select e.event_point_name as name from alarms a join events e on e.id = a.event_id
            where a.event_point_id = $1 and ${inClient} order by a.event_id desc limit 1`,
          params,
        );
        if (!known.rows.length) throw new ManagementError(400, 'Bad request', [{ field: 'pointId', message: 'has raised no alarm in this client' }]);
        // a shelving whose time is up but not yet swept ends now, so the source can be shelved again
        const p2: unknown[] = [pointId];
        const stale = await tx.query<{ id: number; until: Date }>(
          `update alarm_shelvings set ended_at = until, end_reason = 'expired', updated_at = now()
            where event_point_id = $1 and ended_at is null and until <= now() and ${tenant(p2, clientId)} returning id, until`,
          p2,
        );
        for (const s of stale.rows) await unshelveAlarms(tx, clientId, s.id, 'system', 'The shelving ended by itself', new Date(s.until));
        const p3: unknown[] = [pointId];
        const running = await tx.query<{ until: Date }>(
          `select until from alarm_shelvings where event_point_id = $1 and ended_at is null and ${tenant(p3, clientId)}`,
          p3,
        );
        if (running.rows.length)
          throw new ManagementError(409, fill('alarm.alreadyShelved', 'This source is already shelved until {until}', { until: iso(running.rows[0].until)! }));
        const ins = await tx.query<any>(
          `insert into alarm_shelvings (client_id, event_point_id, point_name, reason, minutes, shelved_by, until)
           values ($1,$2,$3,$4,$5,$6, date_trunc('milliseconds', now() + $5::int * interval '1 minute')) returning *`,
          [clientId, pointId, known.rows[0].name, reason, minutes, actor],
        );
        const row = ins.rows[0];
        const p4: unknown[] = [pointId, row.id];
        const hidden = await tx.query<{ event_id: string }>(
          `update alarms set shelved = true, shelving_id = $2 where event_point_id = $1 and state <> 'processed' and not shelved and ${tenant(p4, clientId)} returning event_id`,
          p4,
        );
        for (const h of hidden.rows)
          await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor, note) values ($1,$2,'shelved',$3,$4)`, [
            h.event_id,
            clientId,
            actor,
            `Shelved for ${minutes} min: ${reason}`,
          ]);
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
        await audit(tx, null, { ...out, alarms: hidden.rows.map((h) => Number(h.event_id)) }, out.id);
        return out;
      });
      action(clientId, { eventPointId: pointId, process: false, change: 'shelved', note: reason });
      publish(clientId, `${DESTINATIONS.changes}/alarmShelvings`, { resource: 'alarmShelvings', id: shelving.id, action: 'create' });
      await alarms.announceCount(clientId);
      return shelving;
    },

    /** End a running shelving now (the catalogue's `end` action, inside its transaction). */
    async endShelving(tx: Db, clientId: number, shelvingId: number, actor: string): Promise<number> {
      const params: unknown[] = [shelvingId, actor];
      const up = await tx.query(
        `update alarm_shelvings set ended_at = now(), ended_by = $2, end_reason = 'ended', updated_at = now()
          where id = $1 and ended_at is null and ${tenant(params, clientId)} returning id`,
        params,
      );
      if (!up.rows.length) throw new ManagementError(409, 'The shelving has already ended');
      return unshelveAlarms(tx, clientId, shelvingId, actor, `Shelving ended by ${actor}`, null);
    },
    afterUnshelve,

    async forward(clientId: number, eventId: number, b: ForwardAlarmBody, actor: string, audit: Audit) {
      const to = (b.userId ?? null) !== null ? 'user' : (b.groupId ?? null) !== null ? 'group' : null;
      if (!to || ((b.userId ?? null) !== null && (b.groupId ?? null) !== null))
        throw new ManagementError(400, 'Bad request', [{ field: 'userId', message: 'name an operator or an operator group, one of them' }]);
      const note = b.note.trim();
      const done = await db.transaction(async (tx) => {
        const p0: unknown[] = [eventId];
        const a = await tx.query<any>(
          `select a.*, e.message, e.event_point_name, e.at from alarms a join events e on e.id = a.event_id where a.event_id = $1 and ${tenant(p0, clientId, 'a')}`,
          p0,
        );
        if (!a.rows[0]) throw new ManagementError(404, 'Alarm not found');
        const alarm = a.rows[0];
        if (alarm.state === 'processed') throw new ManagementError(409, 'The alarm is already processed');
        let name: string, users: number[];
        if (to === 'user') {
          const p: unknown[] = [b.userId];
          const u = await tx.query<{ id: number; name: string | null; username: string }>(
            `select id, name, username from tenant_operators where id = $1 and not disabled and ${tenant(p, clientId)}`,
            p,
          );
          if (!u.rows[0]) throw new ManagementError(400, 'Bad request', [{ field: 'userId', message: 'is not an operator of this client' }]);
          name = u.rows[0].name || u.rows[0].username;
          users = [Number(u.rows[0].id)];
        } else {
          const p: unknown[] = [b.groupId];
          const g = await tx.query<{ id: number; name: string }>(`select id, name from operator_groups where id = $1 and ${tenant(p, clientId)}`, p);
          if (!g.rows[0]) throw new ManagementError(400, 'Bad request', [{ field: 'groupId', message: 'is not an operator group of this client' }]);
          name = g.rows[0].name;
          users = await membersOf(tx, Number(g.rows[0].id));
        }
        const p1: unknown[] = [eventId, to === 'user' ? b.userId : null, to === 'group' ? b.groupId : null];
        await tx.query(`update alarms set forwarded_to_user_id = $2, forwarded_to_group_id = $3 where event_id = $1 and ${tenant(p1, clientId)}`, p1);
        await tx.query(`insert into alarm_history (alarm_id, client_id, action, actor, note, to_user_id, to_group_id) values ($1,$2,'forwarded',$3,$4,$5,$6)`, [
          eventId,
          clientId,
          actor,
          `To ${name}: ${note}`,
          to === 'user' ? b.userId : null,
          to === 'group' ? b.groupId : null,
        ]);
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
      const p1: unknown[] = [];
      const ops = await db.query<{ id: number; name: string | null; username: string }>(
        `select id, name, username from tenant_operators where ${tenant(p1, clientId)} and not disabled order by coalesce(nullif(name, ''), username)`,
        p1,
      );
      const p2: unknown[] = [];
      const groups = await db.query<{ id: number; name: string }>(`select id, name from operator_groups where ${tenant(p2, clientId)} order by name`, p2);
      return {
        operators: ops.rows.map((r) => ({ id: Number(r.id), name: r.name || r.username, username: r.username })),
        groups: groups.rows.map((r) => ({ id: Number(r.id), name: r.name })),
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
