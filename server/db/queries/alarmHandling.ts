// Alarm handling's SQL (server/http/alarmHandling.ts; issue 48: its queries in the queries room): the conditions on an
// alarm `a` its figures and the events list's figure filter share, and the report's queries (the period in the client's
// zone, the figures in one statement over grouping sets, the alarm types' and operators' names, the kept targets).
import { ALARM_TARGET_PRIORITIES, DEFAULT_ALARM_TARGETS } from '../../../contract/alarmHandling';
import { divisionCondition } from '../../auth/eventScope';
import type { Db } from '../db';
import { tenant, tenantOf } from '../tenant';

/** The client's zone as SQL, for an alarm `a` (UTC when none is set). */
const ZONE_OF_ALARM = `(select coalesce(nullif(c.timezone, ''), 'UTC') from clients c where c.id = a.client_id)`;
/** When the alarm was taken on: acknowledged, or processed straight away (processing acknowledges it too). */
export const TAKEN_AT = 'coalesce(a.acknowledged_at, a.processed_at)';
/** An alarm's target in seconds for `kind`, from its client's alarm settings (the defaults while none are kept). */
function targetSeconds(kind: 'ack' | 'process'): string {
  const p = 'least(greatest(a.priority, 1), 4)';
  const kept = ALARM_TARGET_PRIORITIES.map((n) => `when ${n} then s.${kind}_p${n}_minutes`).join(' ');
  const defaults = ALARM_TARGET_PRIORITIES.map((n) => `when ${n} then ${DEFAULT_ALARM_TARGETS[kind][n]}`).join(' ');
  return `(60 * coalesce((select case ${p} ${kept} end from alarm_settings s where s.client_id = a.client_id), case ${p} ${defaults} end))`;
}
export const LATE_ACK = `(case when ${TAKEN_AT} is null then extract(epoch from now() - a.raised_at) else extract(epoch from ${TAKEN_AT} - a.raised_at) end > ${targetSeconds('ack')})`;
export const LATE_PROCESS = `(case when a.processed_at is null then extract(epoch from now() - a.raised_at) else extract(epoch from a.processed_at - a.raised_at) end > ${targetSeconds('process')})`;
export const WITHOUT_NOTE = `(a.processed_at is not null and coalesce(btrim(a.note), '') = '')`;
export const OPERATOR = `coalesce(a.processed_by, a.acknowledged_by, '')`;
export const HOUR = `extract(hour from a.raised_at at time zone ${ZONE_OF_ALARM})::int`;
/** Not processed by `end` (SQL of an instant). */
export const openAt = (end: string) => `(a.processed_at is null or a.processed_at >= ${end})`;

/** The period of local days [from, to] in the client's zone (UTC when none is set): the zone and its instants. */
export async function reportPeriodInZone(db: Db, clientId: number, from: string, to: string): Promise<{ zone: string; start: Date; end: Date }> {
  const {
    rows: [p],
  } = await db.query<{ zone: string; start: Date; end: Date }>(
    `select z.zone, ($2::date::timestamp at time zone z.zone) as start,
      (($3::date + 1)::timestamp at time zone z.zone) as "end"
    from (select coalesce(nullif(timezone, ''), 'UTC') as zone from clients where id = $1) z`,
    [clientId, from, to],
  );
  return p;
}

/** The figures of the client's alarms raised in [start, end) within `divisions` (null: all): in total and per priority, type, operator and hour (grouping sets). */
export async function alarmHandlingRows(db: Db, clientId: number, start: Date, end: Date, divisions: readonly number[] | null): Promise<any[]> {
  const params: unknown[] = [];
  const own = tenantOf(params, clientId); // $1
  params.push(start, end); // $2, $3
  const scope = divisions ? ` and ${divisionCondition(params.push([...divisions]))}` : '';
  const duration = (expr: string, prefix: string) => `percentile_cont(0.5) within group (order by ${expr}) as ${prefix}_median,
    percentile_cont(0.9) within group (order by ${expr}) as ${prefix}_p90, max(${expr}) as ${prefix}_worst, count(${expr}) as ${prefix}_count`;
  const { rows } = await db.query<any>(
    `with m as (
      select a.priority, a.event_code, ${OPERATOR} as operator, ${HOUR} as hour,
        extract(epoch from ${TAKEN_AT} - a.raised_at)::float8 as ack_s, extract(epoch from a.processed_at - a.raised_at)::float8 as proc_s,
        ${openAt('$3')} as open_at_end, ${WITHOUT_NOTE} as without_note, ${LATE_ACK} as late_ack, ${LATE_PROCESS} as late_proc
      from alarms a join events e on e.id = a.event_id
      where ${own('a')} and ${own('e')} and a.raised_at >= $2 and a.raised_at < $3${scope})
    select grouping(priority) as g_priority, grouping(event_code) as g_type, grouping(operator) as g_operator, grouping(hour) as g_hour,
      priority, event_code, operator, hour, count(*) as raised, ${duration('ack_s', 'ack')}, ${duration('proc_s', 'proc')},
      count(*) filter (where open_at_end) as open_at_end, count(*) filter (where without_note) as without_note,
      count(*) filter (where late_ack) as late_ack, count(*) filter (where late_proc) as late_proc
    from m group by grouping sets ((), (priority), (event_code), (operator), (hour))
    order by priority nulls last, event_code nulls last, operator nulls last, hour nulls last`,
    params,
  );
  return rows;
}

/** The alarm types' names the client sees (its own, else the platform's), one per event code. */
export async function alarmTypeNames(db: Db, clientId: number): Promise<{ event_code: number; name: string }[]> {
  const typeParams: unknown[] = [];
  const { rows } = await db.query<{ event_code: number; name: string }>(
    `select distinct on (event_code) event_code, name from alarm_types
    where ${tenant(typeParams, clientId)} or client_id is null order by event_code, client_id nulls last`,
    typeParams,
  );
  return rows;
}

/** The names of the users `usernames`. */
export async function userNames(db: Db, usernames: string[]): Promise<{ username: string; name: string | null }[]> {
  const { rows } = await db.query<{ username: string; name: string | null }>('select username, name from users where username = any($1::text[])', [usernames]);
  return rows;
}

/** The client's alarm settings as kept (none: the defaults apply). */
export async function alarmSettingsOf(db: Db, clientId: number): Promise<any> {
  const keptParams: unknown[] = [];
  const {
    rows: [kept],
  } = await db.query<any>(`select * from alarm_settings where ${tenant(keptParams, clientId)}`, keptParams);
  return kept;
}
