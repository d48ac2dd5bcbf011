// Alarm handling, measured (issue 31) [0.6.7.0]: GET /event/report/alarm-handling?from=&to=[&format=csv|xlsx] — the
// figures of contract/alarmHandling.ts for a period of days in the client's zone, in total and per priority, alarm
// type, operator and hour of the day, computed in one SQL statement (grouping sets; percentile_cont for median and
// p90), division-scoped as the alarms list is (eventDivisions over the report's code: an operator sees the alarms
// of their divisions and those of none). Also the events list's filter of the alarms behind a figure
// (alarmFigureFilter, called by eventFilters), so a click on a figure opens the event report with exactly those.
import type { FastifyInstance } from 'fastify';
import { FIXED_SAID, PRIV, fill, type Violation } from '../../contract';
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
import { eventDivisions } from '../auth/eventScope';
import type { Db } from '../db/db';
import { HttpError, clientOf, principal, query, INVALID_REQUEST } from './kit';
import { iso } from '../db/values';
import { sendTable, type Column } from './tabular';
import {
  HOUR,
  LATE_ACK,
  LATE_PROCESS,
  OPERATOR,
  TAKEN_AT,
  WITHOUT_NOTE,
  alarmHandlingRows,
  alarmSettingsOf,
  alarmTypeNames,
  openAt,
  reportPeriodInZone,
  userNames,
} from '../db/queries/alarmHandling';
import { alarmManagementFigures } from '../alarms/figures';

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
  violations.push({ field, ...fill('query.givenOnce', 'must be given once', {}) });
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
      violations.push({ field: 'alarmFigure', ...fill('value.notOneOf', 'must be one of {choices}', { choices: ALARM_FIGURES.join(', ') }) });
    else {
      const to = one(q, 'to', []);
      const end = () => (to !== undefined && !Number.isNaN(Date.parse(to)) ? `${add(new Date(to).toISOString())}::timestamptz` : 'now()');
      conds.push(figureCondition(figure as AlarmFigure, end));
    }
  }
  if (priority !== undefined) {
    if (!/^\d{1,4}$/.test(priority)) violations.push({ field: 'alarmPriority', ...FIXED_SAID.notWhole });
    else conds.push(`a.priority = ${add(Number(priority))}::int`);
  }
  if (operator !== undefined) {
    if (operator.length === 0 || operator.length > 100)
      violations.push({ field: 'alarmOperator', ...fill('alarmHandling.notOperator', 'must be a user name, or - for nobody yet', {}) });
    else conds.push(`${OPERATOR} = ${add(operator === '-' ? '' : operator)}`);
  }
  if (hour !== undefined) {
    if (!/^\d{1,2}$/.test(hour) || Number(hour) > 23)
      violations.push({ field: 'alarmHour', ...fill('alarmHandling.notHour', 'must be an hour from 0 to 23', {}) });
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
  const p = await reportPeriodInZone(db, clientId, from, to);
  const rows = await alarmHandlingRows(db, clientId, p.start, p.end, divisions);
  const typeName = new Map((await alarmTypeNames(db, clientId)).map((t) => [Number(t.event_code), t.name]));
  const users = await userNames(db, [...new Set(rows.map((r) => r.operator).filter((o) => o))]);
  const userName = new Map(users.map((u) => [u.username, u.name || u.username]));
  const kept = await alarmSettingsOf(db, clientId);
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
    if (problem) throw new HttpError(400, INVALID_REQUEST, [problem]);
    const report = await alarmHandlingReport(db, clientId, q.from, q.to, await eventDivisions(principal(req), [PRIV.alarmHandlingReport]));
    if (!q.format || q.format === 'json') return report;
    async function* rows() {
      yield* tableRows(report);
    }
    return sendTable(reply, q.format, `alarm-handling-${q.from}-${q.to}`, { columns: COLUMNS, zone: report.zone, rows: rows() }, { sheet: 'Alarm handling' });
  });
}
