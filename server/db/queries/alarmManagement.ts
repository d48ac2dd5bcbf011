// Alarm management's SQL (server/alarms/management.ts; issue 48: its queries in the queries room): escalation (the
// alarms due for their next step, the step taken once), shelving (a source's alarms hidden and back), forwarding (to
// an operator or a group of the client), and each change's line in the alarm's history.
import { ALARM_TARGET_PRIORITIES } from '../../../contract/alarmHandling';
import type { Db } from '../db';
import { tenant } from '../tenant';

/** The acknowledge target of an alarm `a` in minutes, from its client's settings `s`. */
const ACK_MINUTES = `(case least(greatest(a.priority, 1), 4) ${ALARM_TARGET_PRIORITIES.map((n) => `when ${n} then s.ack_p${n}_minutes`).join(' ')} end)`;
const GROUPS = `array_remove(array[s.escalate_group1_id, s.escalate_group2_id, s.escalate_group3_id], null)`;

/** The members of operator group `groupId`, by id. */
export async function groupMemberIds(db: Db, groupId: number): Promise<number[]> {
  const { rows } = await db.query<{ user_id: number }>('select user_id from operator_group_members where group_id = $1 order by user_id', [groupId]);
  return rows.map((r) => Number(r.user_id));
}

/** A line of an alarm's history: shelved or unshelved, by `actor`, with a note. */
export async function addShelvingHistory(db: Db, alarmId: unknown, clientId: number, action: 'shelved' | 'unshelved', actor: string | null, note: string) {
  await db.query(`insert into alarm_history (alarm_id, client_id, action, actor, note) values ($1,$2,'${action}',$3,$4)`, [alarmId, clientId, actor, note]);
}

/** The alarms of shelving `shelvingId` still hidden, back on the consoles, their escalation counting from `at` (null: now);
 *  locked first in the order of their ids (docs/ARCHITECTURE.md, lock order). */
export async function unshelveShelvingAlarms(db: Db, clientId: number, shelvingId: number, at: Date | null): Promise<{ event_id: string }[]> {
  const params: unknown[] = [shelvingId, at];
  const lock: unknown[] = [shelvingId];
  await db.query(`select event_id from alarms where shelving_id = $1 and shelved and ${tenant(lock, clientId)} order by event_id for update`, lock);
  const { rows } = await db.query<{ event_id: string }>(
    `update alarms set shelved = false, escalate_from = coalesce($2::timestamptz, now()) where shelving_id = $1 and shelved and ${tenant(params, clientId)} returning event_id`,
    params,
  );
  return rows;
}

/** The raised alarms due at `now` for their next escalation step, with their target and their client's groups (500 at most, the oldest first). */
export async function dueEscalations(db: Db, now: Date): Promise<any[]> {
  const { rows } = await db.query<any>(
    `select a.event_id, a.client_id, a.escalation_step, a.event_point_id, a.priority, ${ACK_MINUTES} as target, ${GROUPS} as groups
         from alarms a join alarm_settings s on s.client_id = a.client_id
        where a.state = 'raised' and not a.shelved and a.escalation_step < cardinality(${GROUPS})
          and coalesce(a.escalate_from, a.raised_at) + (a.escalation_step + 1) * ${ACK_MINUTES} * interval '1 minute' <= $1
        order by a.raised_at, a.event_id limit 500`,
    [now],
  );
  return rows;
}

/** Takes alarm `eventId` from step `from` to `step` (group `groupId`): false when another server took it, or it was acknowledged or shelved. */
export async function takeEscalationStep(db: Db, clientId: number, eventId: unknown, step: number, groupId: number, from: number): Promise<boolean> {
  const params: unknown[] = [eventId, step, groupId, from];
  const up = await db.query<{ event_id: string }>(
    `update alarms set escalation_step = $2, escalated_to_group_id = $3
            where event_id = $1 and escalation_step = $4 and state = 'raised' and not shelved and ${tenant(params, clientId)} returning event_id`,
    params,
  );
  return up.rows.length > 0;
}

export async function operatorGroupName(db: Db, groupId: number): Promise<string | undefined> {
  const g = await db.query<{ name: string }>('select name from operator_groups where id = $1', [groupId]);
  return g.rows[0]?.name;
}

/** The escalation's line in the alarm's history, by 'system'. */
export async function addEscalationHistory(db: Db, alarmId: unknown, clientId: number, note: string, step: number, groupId: number): Promise<void> {
  await db.query(`insert into alarm_history (alarm_id, client_id, action, actor, note, step, to_group_id) values ($1,$2,'escalated','system',$3,$4,$5)`, [
    alarmId,
    clientId,
    note,
    step,
    groupId,
  ]);
}

/** Event `id`'s message, point name and time. */
export async function alarmEventSummary(db: Db, id: unknown): Promise<{ message: string; event_point_name: string | null; at: Date } | undefined> {
  const ev = await db.query<{ message: string; event_point_name: string | null; at: Date }>('select message, event_point_name, at from events where id = $1', [
    id,
  ]);
  return ev.rows[0];
}

/** The running shelvings whose time is up at `now` (500 at most, the earliest first). */
export async function dueShelvingEnds(db: Db, now: Date): Promise<{ id: number; client_id: number; event_point_id: string; until: Date }[]> {
  const { rows } = await db.query<{ id: number; client_id: number; event_point_id: string; until: Date }>(
    `select id, client_id, event_point_id, until from alarm_shelvings where ended_at is null and until <= $1 order by until, id limit 500`,
    [now],
  );
  return rows;
}

/** Ends shelving `id` at its until ('expired'): false when it has already ended. */
export async function expireShelving(db: Db, clientId: number, id: number): Promise<boolean> {
  const params: unknown[] = [id];
  const up = await db.query(
    `update alarm_shelvings set ended_at = until, end_reason = 'expired', updated_at = now() where id = $1 and ended_at is null and ${tenant(params, clientId)} returning id`,
    params,
  );
  return up.rows.length > 0;
}

/** The point name of the client's latest alarm of `pointId` (none: the point raised no alarm in the client). */
export async function alarmPointName(db: Db, clientId: number, pointId: string): Promise<{ name: string | null } | undefined> {
  const params: unknown[] = [pointId];
  const inClient = tenant(params, clientId, 'a');
  const known = await db.query<{ name: string | null }>(
    `select e.event_point_name as name from alarms a join events e on e.id = a.event_id
            where a.event_point_id = $1 and ${inClient} order by a.event_id desc limit 1`,
    params,
  );
  return known.rows[0];
}

/** Ends `pointId`'s shelvings whose time is up but not yet swept: those. */
export async function expireStaleShelvings(db: Db, clientId: number, pointId: string): Promise<{ id: number; until: Date }[]> {
  const p2: unknown[] = [pointId];
  const stale = await db.query<{ id: number; until: Date }>(
    `update alarm_shelvings set ended_at = until, end_reason = 'expired', updated_at = now()
            where event_point_id = $1 and ended_at is null and until <= now() and ${tenant(p2, clientId)} returning id, until`,
    p2,
  );
  return stale.rows;
}

/** `pointId`'s running shelving (none: not shelved). */
export async function runningShelving(db: Db, clientId: number, pointId: string): Promise<{ until: Date } | undefined> {
  const p3: unknown[] = [pointId];
  const running = await db.query<{ until: Date }>(
    `select until from alarm_shelvings where event_point_id = $1 and ended_at is null and ${tenant(p3, clientId)}`,
    p3,
  );
  return running.rows[0];
}

/** A new shelving of `pointId` for `minutes` from now: its row. */
export async function insertShelving(
  db: Db,
  s: { clientId: number; pointId: string; pointName: string | null; reason: string; minutes: number; actor: string },
): Promise<any> {
  const ins = await db.query<any>(
    `insert into alarm_shelvings (client_id, event_point_id, point_name, reason, minutes, shelved_by, until)
           values ($1,$2,$3,$4,$5,$6, date_trunc('milliseconds', now() + $5::int * interval '1 minute')) returning *`,
    [s.clientId, s.pointId, s.pointName, s.reason, s.minutes, s.actor],
  );
  return ins.rows[0];
}

/** Hides `pointId`'s alarms not processed under shelving `shelvingId`: those. Locked first in the order of their ids,
 *  the order the event pipeline locks a point's alarms in (docs/ARCHITECTURE.md, lock order): in the order of the
 *  point's index the two crossed once some alarms had been written again (acknowledged) and deadlocked. */
export async function shelveAlarms(db: Db, clientId: number, pointId: string, shelvingId: unknown): Promise<{ event_id: string }[]> {
  const p4: unknown[] = [pointId, shelvingId];
  const lock: unknown[] = [pointId];
  await db.query(
    `select event_id from alarms where event_point_id = $1 and state <> 'processed' and not shelved and ${tenant(lock, clientId)} order by event_id for update`,
    lock,
  );
  const hidden = await db.query<{ event_id: string }>(
    `update alarms set shelved = true, shelving_id = $2 where event_point_id = $1 and state <> 'processed' and not shelved and ${tenant(p4, clientId)} returning event_id`,
    p4,
  );
  return hidden.rows;
}

/** Ends running shelving `shelvingId` now, by `actor`: false when it has already ended. */
export async function endShelvingNow(db: Db, clientId: number, shelvingId: number, actor: string): Promise<boolean> {
  const params: unknown[] = [shelvingId, actor];
  const up = await db.query(
    `update alarm_shelvings set ended_at = now(), ended_by = $2, end_reason = 'ended', updated_at = now()
          where id = $1 and ended_at is null and ${tenant(params, clientId)} returning id`,
    params,
  );
  return up.rows.length > 0;
}

/** The client's alarm `eventId` with its event's message, point name and time. */
export async function alarmWithEvent(db: Db, clientId: number, eventId: number): Promise<any> {
  const p0: unknown[] = [eventId];
  const a = await db.query<any>(
    `select a.*, e.message, e.event_point_name, e.at from alarms a join events e on e.id = a.event_id where a.event_id = $1 and ${tenant(p0, clientId, 'a')}`,
    p0,
  );
  return a.rows[0];
}

/** Operator `userId` of the client, when not disabled. */
export async function activeClientOperator(
  db: Db,
  clientId: number,
  userId: unknown,
): Promise<{ id: number; name: string | null; username: string } | undefined> {
  const p: unknown[] = [userId];
  const u = await db.query<{ id: number; name: string | null; username: string }>(
    `select id, name, username from tenant_operators where id = $1 and not disabled and ${tenant(p, clientId)}`,
    p,
  );
  return u.rows[0];
}

/** Operator group `groupId` of the client. */
export async function clientOperatorGroup(db: Db, clientId: number, groupId: unknown): Promise<{ id: number; name: string } | undefined> {
  const p: unknown[] = [groupId];
  const g = await db.query<{ id: number; name: string }>(`select id, name from operator_groups where id = $1 and ${tenant(p, clientId)}`, p);
  return g.rows[0];
}

/** Alarm `eventId` forwarded to operator `userId` or group `groupId` (the other null), with its history line by `actor`. */
export async function forwardAlarm(
  db: Db,
  clientId: number,
  eventId: number,
  userId: number | null | undefined,
  groupId: number | null | undefined,
  actor: string,
  note: string,
): Promise<void> {
  const p1: unknown[] = [eventId, userId, groupId];
  await db.query(`update alarms set forwarded_to_user_id = $2, forwarded_to_group_id = $3 where event_id = $1 and ${tenant(p1, clientId)}`, p1);
  await db.query(`insert into alarm_history (alarm_id, client_id, action, actor, note, to_user_id, to_group_id) values ($1,$2,'forwarded',$3,$4,$5,$6)`, [
    eventId,
    clientId,
    actor,
    note,
    userId,
    groupId,
  ]);
}

/** The client's operators an alarm may be forwarded to (not disabled), by name. */
export async function forwardOperators(db: Db, clientId: number): Promise<{ id: number; name: string | null; username: string }[]> {
  const p1: unknown[] = [];
  const ops = await db.query<{ id: number; name: string | null; username: string }>(
    `select id, name, username from tenant_operators where ${tenant(p1, clientId)} and not disabled order by coalesce(nullif(name, ''), username)`,
    p1,
  );
  return ops.rows;
}

/** The client's operator groups, by name. */
export async function forwardGroups(db: Db, clientId: number): Promise<{ id: number; name: string }[]> {
  const p2: unknown[] = [];
  const groups = await db.query<{ id: number; name: string }>(`select id, name from operator_groups where ${tenant(p2, clientId)} order by name`, p2);
  return groups.rows;
}
