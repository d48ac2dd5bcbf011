// The alarm-management figures of ISA-18.2 / IEC 62682 on the alarm handling report (issue 50; contract
// alarmManagement.ts AlarmManagementFigures), for the report's period [start, end) cut at now, the same alarms as the
// report's (the client's, division-scoped by their events):
//  - alarms per operator-hour: the alarms raised over the hours of the period (one alarm desk per client);
//  - flood: the period cut into 10-minute windows from its start; a window with more than ALARM_FLOOD_COUNT alarms is in
//    flood; the share is flood windows over all windows;
//  - top 10 sources: the event points that raised most alarms (ties by point id);
//  - chattering: sources raising more than ALARM_CHATTER_COUNT alarms within any minute (a sliding window: a burst
//    across the turn of a minute counts too), with how many bursts (chattering alarms less than a minute apart are
//    one burst) and the alarms in them;
//  - stale: alarms raised in the period still not processed ALARM_STALE_HOURS after raising, by the period's end (or now);
//  - shelvings begun and escalation steps taken in the period.
import {
  ALARM_CHATTER_COUNT,
  ALARM_CHATTER_WINDOW_MS,
  ALARM_FLOOD_COUNT,
  ALARM_FLOOD_WINDOW_MS,
  ALARM_STALE_HOURS,
  type AlarmManagementFigures,
} from '../../contract/alarmManagement';
import { divisionCondition } from '../auth/eventScope';
import type { Db } from '../db/db';
import { tenantOf } from '../db/tenant';

export async function alarmManagementFigures(
  db: Db,
  clientId: number,
  start: Date,
  end: Date,
  divisions: readonly number[] | null,
  now = new Date(),
): Promise<AlarmManagementFigures> {
  const until = new Date(Math.min(end.getTime(), Math.max(start.getTime(), now.getTime())));
  const params: unknown[] = [];
  const own = tenantOf(params, clientId); // $1
  params.push(start, until); // $2, $3
  const scope = divisions ? ` and ${divisionCondition(params.push([...divisions]))}` : '';
  const alarms = `select a.event_id, a.event_point_id, e.event_point_name, a.raised_at, a.processed_at from alarms a join events e on e.id = a.event_id
    where ${own('a')} and ${own('e')} and a.raised_at >= $2 and a.raised_at < $3${scope}`;
  const win = ALARM_FLOOD_WINDOW_MS / 1000;
  const minute = ALARM_CHATTER_WINDOW_MS / 1000;
  const { rows } = await db.query<{ what: string; point: string | null; name: string | null; n: string; m: string | null }>(
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
  const countParams: unknown[] = [];
  const mine = tenantOf(countParams, clientId); // $1
  countParams.push(start, until); // $2, $3
  const counts = await db.query<{ shelvings: string; escalations: string }>(
    `select (select count(*) from alarm_shelvings where ${mine()} and shelved_at >= $2 and shelved_at < $3)::text as shelvings,
      (select count(*) from alarm_history where ${mine()} and action = 'escalated' and at >= $2 and at < $3)::text as escalations`,
    countParams,
  );
  const one = (what: string) => Number(rows.find((r) => r.what === what)?.n ?? 0);
  const hours = (until.getTime() - start.getTime()) / 3_600_000;
  const windows = Math.ceil((until.getTime() - start.getTime()) / ALARM_FLOOD_WINDOW_MS);
  const raised = one('raised');
  const flood = one('flood');
  return {
    perOperatorHour: hours > 0 ? Math.round((raised / hours) * 100) / 100 : 0,
    floodShare: windows > 0 ? Math.round((flood / windows) * 10_000) / 10_000 : 0,
    floodWindows: flood,
    windows,
    topSources: rows
      .filter((r) => r.what === 'top')
      .map((r) => ({ pointId: String(r.point), name: r.name, count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || a.pointId.localeCompare(b.pointId)),
    chattering: rows
      .filter((r) => r.what === 'chatter')
      .map((r) => ({ pointId: String(r.point), name: r.name, bursts: Number(r.m), count: Number(r.n) }))
      .sort((a, b) => b.count - a.count || a.pointId.localeCompare(b.pointId)),
    stale: one('stale'),
    shelvings: Number(counts.rows[0].shelvings),
    escalations: Number(counts.rows[0].escalations),
  };
}
