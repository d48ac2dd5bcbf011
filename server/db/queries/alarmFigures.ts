// The alarm-management figures' SQL (server/alarms/figures.ts; issue 48: its queries in the queries room): for the
// client's alarms raised in [start, until) (division-scoped by their events), the raised count, the flood windows,
// the top sources, the chattering ones and the stale count in one pass; and the period's shelvings and escalations.
import { ALARM_CHATTER_COUNT, ALARM_CHATTER_WINDOW_MS, ALARM_FLOOD_COUNT, ALARM_FLOOD_WINDOW_MS, ALARM_STALE_HOURS } from '../../../contract/alarmManagement';
import { divisionCondition } from '../../auth/eventScope';
import type { Db } from '../db';
import { tenantOf } from '../tenant';

/** One figure's row: `what` ('raised', 'flood', 'top', 'chatter', 'stale'), its point and name when per source, its count `n` (and bursts `m`). */
export interface AlarmFigureRow {
  what: string;
  point: string | null;
  name: string | null;
  n: string;
  m: string | null;
}

export async function alarmFigureRows(db: Db, clientId: number, start: Date, until: Date, divisions: readonly number[] | null): Promise<AlarmFigureRow[]> {
  const params: unknown[] = [];
  const own = tenantOf(params, clientId); // $1
  params.push(start, until); // $2, $3
  const scope = divisions ? ` and ${divisionCondition(params.push([...divisions]))}` : '';
  const alarms = `select a.event_id, a.event_point_id, e.event_point_name, a.raised_at, a.processed_at from alarms a join events e on e.id = a.event_id
    where ${own('a')} and ${own('e')} and a.raised_at >= $2 and a.raised_at < $3${scope}`;
  const win = ALARM_FLOOD_WINDOW_MS / 1000;
  const minute = ALARM_CHATTER_WINDOW_MS / 1000;
  const { rows } = await db.query<AlarmFigureRow>(
    `with m as (${alarms})
    select 'raised' as what, null as point, null as name, count(*)::text as n, null as m from m
    union all
    select 'flood', null, null, count(*)::text, null from (select floor(extract(epoch from raised_at - $2::timestamptz) / ${win}) w from m group by 1 having count(*) > ${ALARM_FLOOD_COUNT}) f
    union all
    select * from (select 'top', event_point_id, max(event_point_name), count(*)::text, null from m group by event_point_id order by count(*) desc, event_point_id limit 10) t
    union all
    select 'chatter', event_point_id, max(name), count(*)::text, count(*) filter (where starts)::text from (
      select event_point_id, name, coalesce(raised_at - lag(raised_at) over (partition by event_point_id order by raised_at, event_id) > interval '${minute} seconds', true) as starts
      from (
        select event_point_id, name, raised_at, event_id,
          max(k) over (partition by event_point_id order by raised_at range between current row and interval '${minute} seconds' following) as reach
        from (
          select event_point_id, event_point_name as name, raised_at, event_id,
            count(*) over (partition by event_point_id order by raised_at range between interval '${minute} seconds' preceding and current row) as k
          from m) w) x
      where reach > ${ALARM_CHATTER_COUNT}) c group by event_point_id
    union all
    select 'stale', null, null, count(*)::text, null from m
      where raised_at + interval '${ALARM_STALE_HOURS} hours' <= $3 and (processed_at is null or processed_at > raised_at + interval '${ALARM_STALE_HOURS} hours')`,
    params,
  );
  return rows;
}

/** The client's shelvings and escalations in [start, until). */
export async function shelvingAndEscalationCounts(db: Db, clientId: number, start: Date, until: Date): Promise<{ shelvings: string; escalations: string }> {
  const countParams: unknown[] = [];
  const mine = tenantOf(countParams, clientId); // $1
  countParams.push(start, until); // $2, $3
  const counts = await db.query<{ shelvings: string; escalations: string }>(
    `select (select count(*) from alarm_shelvings where ${mine()} and shelved_at >= $2 and shelved_at < $3)::text as shelvings,
      (select count(*) from alarm_history where ${mine()} and action = 'escalated' and at >= $2 and at < $3)::text as escalations`,
    countParams,
  );
  return counts.rows[0];
}
