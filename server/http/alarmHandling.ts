// Alarm handling, measured (issue 31) [0.6.7.0]: GET /event/report/alarm-handling?from=&to=[&format=csv|xlsx] — the
// figures of contract/alarmHandling.ts for a period of days in the client's zone, in total and per priority, alarm
// type, operator and hour of the day, computed in one SQL statement (grouping sets; percentile_cont for median and
// p90), division-scoped as the alarms list is (eventDivisions over the report's code: an operator sees the alarms
// of their divisions and those of none). Also the events list's filter of the alarms behind a figure
// (alarmFigureFilter, called by eventFilters), so a click on a figure opens the event report with exactly those.
import type { FastifyInstance } from 'fastify';
import { PRIV, type Violation } from '../../contract';
import {
  ALARM_FIGURES,
  ALARM_HANDLING_API,
  ALARM_TARGET_PRIORITIES,
  AlarmHandlingQuery,
  DEFAULT_ALARM_TARGETS,
  alarmPeriodProblem,
  type AlarmFigure,
  type AlarmFigures,
  type AlarmGroupRow,
  type AlarmHandlingReport,
  type Durations,
} from '../../contract/alarmHandling';
import { divisionCondition, eventDivisions } from '../auth/eventScope';
import type { Db } from '../db/db';
import { HttpError, clientOf, principal, query } from './kit';
import { iso } from '../db/values';
import { sendTable, type Column } from './tabular';
import { tenant, tenantOf } from '../db/tenant';
import { alarmManagementFigures } from '../alarms/figures';

/** The client's zone as SQL, for an alarm `a` (UTC when none is set). */
const ZONE_OF_ALARM = `(select coalesce(nullif(c.timezone, ''), 'UTC') from clients c where c.id = a.client_id)`;
/** When the alarm was taken on: acknowledged, or processed straight away (processing acknowledges it too). */
const TAKEN_AT = 'coalesce(a.acknowledged_at, a.processed_at)';
/** An alarm's target in seconds for `kind`, from its client's alarm settings (the defaults while none are kept). */
function targetSeconds(kind: 'ack' | 'process'): string {
  const p = 'least(greatest(a.priority, 1), 4)';
  const kept = ALARM_TARGET_PRIORITIES.map((n) => `when ${n} then s.${kind}_p${n}_minutes`).join(' ');
  const defaults = ALARM_TARGET_PRIORITIES.map((n) => `when ${n} then ${DEFAULT_ALARM_TARGETS[kind][n]}`).join(' ');
  return `(60 * coalesce((select case ${p} ${kept} end from alarm_settings s where s.client_id = a.client_id), case ${p} ${defaults} end))`;
}
const LATE_ACK = `(case when ${TAKEN_AT} is null then extract(epoch from now() - a.raised_at) else extract(epoch from ${TAKEN_AT} - a.raised_at) end > ${targetSeconds('ack')})`;
const LATE_PROCESS = `(case when a.processed_at is null then extract(epoch from now() - a.raised_at) else extract(epoch from a.processed_at - a.raised_at) end > ${targetSeconds('process')})`;
const WITHOUT_NOTE = `(a.processed_at is not null and coalesce(btrim(a.note), '') = '')`;
const OPERATOR = `coalesce(a.processed_by, a.acknowledged_by, '')`;
const HOUR = `extract(hour from a.raised_at at time zone ${ZONE_OF_ALARM})::int`;
/** Not processed by `end` (SQL of an instant). */
const openAt = (end: string) => `(a.processed_at is null or a.processed_at >= ${end})`;

/** The alarms behind `figure`, as a condition on an alarm `a`; `end` the period's end. */
function figureCondition(figure: AlarmFigure, end: () => string): string {
  switch (figure) {
    case 'raised':
      return 'true';
    case 'acknowledged':
      return `${TAKEN_AT} is not null`;
    case 'processed':
      return 'a.processed_at is not null';
    case 'open':
      return openAt(end());
    case 'withoutNote':
      return WITHOUT_NOTE;
    case 'lateAcknowledge':
      return LATE_ACK;
    case 'lateProcess':
      return LATE_PROCESS;
  }
}

const one = (q: Record<string, unknown>, field: string, violations: Violation[]): string | undefined => {
  const v = q[field];
  if (v === undefined || typeof v === 'string') return v;
  violations.push({ field, message: 'must be given once' });
  return undefined;
};

/**
 * The events list's filter of the alarms behind a figure (contract alarmFigureQuery): alarmFigure, alarmPriority,
 * alarmOperator ('-': nobody yet), alarmHour (0–23 in the client's zone). Each bad one is a violation naming it; with
 * none given nothing is added. "Open" is counted at the list's `to` (now without one).
 */
export function alarmFigureFilter(q: Record<string, unknown>, params: unknown[], where: string[], violations: Violation[]) {
  const figure = one(q, 'alarmFigure', violations);
  const priority = one(q, 'alarmPriority', violations);
  const operator = one(q, 'alarmOperator', violations);
  const hour = one(q, 'alarmHour', violations);
  if (figure === undefined && priority === undefined && operator === undefined && hour === undefined) return;
  const conds: string[] = [];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (figure !== undefined) {
    if (!(ALARM_FIGURES as readonly string[]).includes(figure))
      violations.push({ field: 'alarmFigure', message: `must be one of ${ALARM_FIGURES.join(', ')}` });
    else {
      const to = one(q, 'to', []);
      const end = () => (to !== undefined && !Number.isNaN(Date.parse(to)) ? `${add(new Date(to).toISOString())}::timestamptz` : 'now()');
      conds.push(figureCondition(figure as AlarmFigure, end));
    }
  }
  if (priority !== undefined) {
    if (!/^\d{1,4}$/.test(priority)) violations.push({ field: 'alarmPriority', message: 'must be a whole number' });
    else conds.push(`a.priority = ${add(Number(priority))}::int`);
  }
  if (operator !== undefined) {
    if (operator.length === 0 || operator.length > 100) violations.push({ field: 'alarmOperator', message: 'must be a user name, or - for nobody yet' });
    else conds.push(`${OPERATOR} = ${add(operator === '-' ? '' : operator)}`);
  }
  if (hour !== undefined) {
    if (!/^\d{1,2}$/.test(hour) || Number(hour) > 23) violations.push({ field: 'alarmHour', message: 'must be an hour from 0 to 23' });
    else conds.push(`${HOUR} = ${add(Number(hour))}::int`);
  }
  if (conds.length) where.push(`exists (select 1 from alarms a where a.event_id = e.id and ${conds.join(' and ')})`);
}

const seconds = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);
const durations = (r: any, p: string): Durations => ({
  median: seconds(r[`${p}_median`]),
  p90: seconds(r[`${p}_p90`]),
  worst: seconds(r[`${p}_worst`]),
  count: Number(r[`${p}_count`]),
});
const figuresOf = (r: any): AlarmFigures => ({
  raised: Number(r.raised),
  acknowledge: durations(r, 'ack'),
  process: durations(r, 'proc'),
  openAtEnd: Number(r.open_at_end),
  withoutNote: Number(r.without_note),
  lateAcknowledge: Number(r.late_ack),
  lateProcess: Number(r.late_proc),
});
const EMPTY: AlarmFigures = figuresOf({ raised: 0, ack_count: 0, proc_count: 0, open_at_end: 0, without_note: 0, late_ack: 0, late_proc: 0 });

/** The report of a period for one client, within `divisions` (null: all). */
export async function alarmHandlingReport(
  db: Db,
  clientId: number,
  from: string,
  to: string,
  divisions: readonly number[] | null,
): Promise<AlarmHandlingReport> {
  const {
    rows: [p],
  } = await db.query<{ zone: string; start: Date; end: Date }>(
    `select z.zone, ($2::date::timestamp at time zone z.zone) as start,
      (($3::date + 1)::timestamp at time zone z.zone) as "end"
    from (select coalesce(nullif(timezone, ''), 'UTC') as zone from clients where id = $1) z`,
    [clientId, from, to],
  );
  const params: unknown[] = [];
  const own = tenantOf(params, clientId); // $1
  params.push(p.start, p.end); // $2, $3
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
  const typeParams: unknown[] = [];
  const { rows: types } = await db.query<{ event_code: number; name: string }>(
    `select distinct on (event_code) event_code, name from alarm_types
    where ${tenant(typeParams, clientId)} or client_id is null order by event_code, client_id nulls last`,
    typeParams,
  );
  const typeName = new Map(types.map((t) => [Number(t.event_code), t.name]));
  const { rows: users } = await db.query<{ username: string; name: string | null }>('select username, name from users where username = any($1::text[])', [
    [...new Set(rows.map((r) => r.operator).filter((o) => o))],
  ]);
  const userName = new Map(users.map((u) => [u.username, u.name || u.username]));
  const keptParams: unknown[] = [];
  const {
    rows: [kept],
  } = await db.query<any>(`select * from alarm_settings where ${tenant(keptParams, clientId)}`, keptParams);
  const set = (g: string) => rows.filter((r) => Number(r.g_priority) + Number(r.g_type) + Number(r.g_operator) + Number(r.g_hour) === 3 && Number(r[g]) === 0);
  const row = (key: string, label: string, r: any): AlarmGroupRow => ({ key, label, figures: figuresOf(r) });
  const total = rows.find((r) => Number(r.g_priority) + Number(r.g_type) + Number(r.g_operator) + Number(r.g_hour) === 4);
  return {
    from,
    to,
    zone: p.zone,
    start: iso(p.start)!,
    end: iso(p.end)!,
    targets: ALARM_TARGET_PRIORITIES.map((n) => ({
      priority: n,
      ackMinutes: Number(kept?.[`ack_p${n}_minutes`] ?? DEFAULT_ALARM_TARGETS.ack[n]),
      processMinutes: Number(kept?.[`process_p${n}_minutes`] ?? DEFAULT_ALARM_TARGETS.process[n]),
    })),
    total: total ? figuresOf(total) : EMPTY,
    priority: set('g_priority').map((r) => row(String(r.priority), `P${r.priority}`, r)),
    type: set('g_type').map((r) => row(String(r.event_code), typeName.get(Number(r.event_code)) ?? `Event ${r.event_code}`, r)),
    operator: set('g_operator').map((r) => row(r.operator, r.operator ? (userName.get(r.operator) ?? r.operator) : '', r)),
    hour: set('g_hour').map((r) => row(String(r.hour), `${String(r.hour).padStart(2, '0')}:00`, r)),
    management: await alarmManagementFigures(db, clientId, p.start, p.end, divisions), // issue 50: ISA-18.2
  };
}

/** The report as one table: a line per group (the total first), durations in seconds; then (issue 50) the ISA-18.2
 *  figures, a line each with its value in Value, the top sources and the chattering sources with their alarms in Raised
 *  (a chattering source's bursts in Value). */
const COLUMNS: Column[] = [
  'Grouping',
  'Key',
  'Group',
  'Raised',
  'Acknowledge median (s)',
  'Acknowledge p90 (s)',
  'Acknowledge worst (s)',
  'Process median (s)',
  'Process p90 (s)',
  'Process worst (s)',
  'Open at the end',
  'Processed without a note',
  'Past acknowledge target',
  'Past process target',
  'Value',
].map((title) => ({ title }));
function tableRows(r: AlarmHandlingReport): unknown[][] {
  const line = (grouping: string, key: string, label: string, f: AlarmFigures) => [
    grouping,
    key,
    label,
    f.raised,
    f.acknowledge.median,
    f.acknowledge.p90,
    f.acknowledge.worst,
    f.process.median,
    f.process.p90,
    f.process.worst,
    f.openAtEnd,
    f.withoutNote,
    f.lateAcknowledge,
    f.lateProcess,
    null,
  ];
  const none = new Array(10).fill(null); // the timing columns, which the ISA-18.2 lines do not have
  const m = r.management;
  const figures: [string, string, number][] = m
    ? [
        ['per-operator-hour', 'Alarms per operator-hour', m.perOperatorHour],
        ['flood-share', 'Share of time in flood', m.floodShare],
        ['flood-windows', '10-minute windows in flood', m.floodWindows],
        ['windows', '10-minute windows', m.windows],
        ['stale', 'Stale alarms', m.stale],
        ['shelvings', 'Shelvings begun', m.shelvings],
        ['escalations', 'Escalation steps', m.escalations],
      ]
    : [];
  return [
    line('total', '', 'All alarms', r.total),
    ...(['priority', 'type', 'operator', 'hour'] as const).flatMap((g) => r[g].map((x) => line(g, x.key, x.label || 'Nobody yet', x.figures))),
    ...figures.map(([key, label, value]) => ['alarm management', key, label, null, ...none, value]),
    ...(m?.topSources ?? []).map((x) => ['top source', x.pointId, x.name ?? x.pointId, x.count, ...none, null]),
    ...(m?.chattering ?? []).map((x) => ['chattering', x.pointId, x.name ?? x.pointId, x.count, ...none, x.bursts]),
  ];
}

export function alarmHandlingRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get(ALARM_HANDLING_API, { config: { privileges: [PRIV.alarmHandlingReport] } }, async (req, reply) => {
    const clientId = clientOf(req);
    const q = query(req.query, AlarmHandlingQuery, []);
    const problem = alarmPeriodProblem(q.from, q.to);
    if (problem) throw new HttpError(400, 'Validation failed', [problem]);
    const report = await alarmHandlingReport(db, clientId, q.from, q.to, await eventDivisions(principal(req), [PRIV.alarmHandlingReport]));
    if (!q.format || q.format === 'json') return report;
    async function* rows() {
      yield* tableRows(report);
    }
    return sendTable(reply, q.format, `alarm-handling-${q.from}-${q.to}`, { columns: COLUMNS, zone: report.zone, rows: rows() }, { sheet: 'Alarm handling' });
  });
}
