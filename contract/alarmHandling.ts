// Alarm handling, measured (issue 31) [0.6.7.0 "Alarm handling report"; a report's code is 0.6.<n>.0, the next free n].
// For a period of days in the client's zone (from and to both included, at most ALARM_HANDLING_MAX_DAYS), the alarms
// raised in it, division-scoped as the alarms list is (an operator sees the alarms of their divisions and those of none):
//   - raised: alarms whose raising event falls in the period;
//   - time to acknowledge: acknowledged_at − raised_at of those acknowledged (whenever that was); time to process the
//     same with processed_at; each as median and p90 (percentile_cont, interpolated) and worst, in seconds;
//   - open at the end: not processed by the end of the period;
//   - processed without a note: processed with no note, or a blank one (imported or system-closed alarms);
//   - past the target: acknowledged (processed) later than the client's target for the priority, or not yet and the
//     target has passed by now. Targets per priority come from the alarm settings [0.4.7.6]; priorities 4 and beyond
//     share the P4 target.
// Groupings: in total, per priority, per alarm type (event code), per operator (who processed it, else who
// acknowledged it; '' for nobody yet) and per hour of the day it was raised (0–23, the client's zone).
// A click on a figure opens the event report with the alarms behind it: the same filters as URL parameters
// (alarmFigureQuery), understood by the events list (server/http/alarmHandling.ts alarmFigureFilter).
import { array, enums, integer, nullable, number, optional, string, type, type Infer } from './structs';
import { beforeFirstDay, beyondFirstDay, calendarDate, dateProblem, problemSaid } from './primitives';
import type { Violation } from './violation';
import { AlarmManagementFigures } from './alarmManagement';

export const ALARM_HANDLING_API = '/event/report/alarm-handling';
export const ALARM_HANDLING_MAX_DAYS = 366;
export const ALARM_HANDLING_FORMATS = ['json', 'csv', 'xlsx'] as const;

/** Target minutes per priority (P1, P2, P3, P4 and beyond) for acknowledging and processing; the alarm settings' defaults. */
export const ALARM_TARGET_PRIORITIES = [1, 2, 3, 4] as const;
export const DEFAULT_ALARM_TARGETS = {
  ack: { 1: 1, 2: 5, 3: 15, 4: 60 },
  process: { 1: 15, 2: 60, 3: 240, 4: 1440 },
} as const;
/** A target's bounds in minutes: at least one minute, at most a week. */
export const ALARM_TARGET_MAX_MINUTES = 10_080;
/** The alarm settings' column of a target (`ackP1Minutes` … `processP4Minutes`, snake case in the table). */
export const targetField = (kind: 'ack' | 'process', priority: number) => `${kind}P${Math.min(4, Math.max(1, priority))}Minutes`;

export const AlarmHandlingQuery = type({ from: calendarDate(), to: calendarDate(), format: optional(enums(ALARM_HANDLING_FORMATS)) });
export type AlarmHandlingQuery = Infer<typeof AlarmHandlingQuery>;

/** What is wrong with a report period, as the violation the server answers (field and message), or null. */
export function alarmPeriodProblem(from: unknown, to: unknown): (Violation & { field: 'from' | 'to' }) | null {
  const notFrom = dateProblem(from);
  if (notFrom) return { field: 'from', ...problemSaid(notFrom) };
  const notTo = dateProblem(to);
  if (notTo) return { field: 'to', ...problemSaid(notTo) };
  const span = (Date.parse(to as string) - Date.parse(from as string)) / 86_400_000;
  if (span < 0) return { field: 'to', ...beforeFirstDay() };
  if (span >= ALARM_HANDLING_MAX_DAYS) return { field: 'to', ...beyondFirstDay(ALARM_HANDLING_MAX_DAYS) };
  return null;
}

export const ALARM_GROUPINGS = ['priority', 'type', 'operator', 'hour'] as const;
export type AlarmGrouping = (typeof ALARM_GROUPINGS)[number];

/** Durations in seconds (null: none to measure). */
export const Durations = type({ median: nullable(number()), p90: nullable(number()), worst: nullable(number()), count: integer() });
export type Durations = Infer<typeof Durations>;
export const AlarmFigures = type({
  raised: integer(),
  acknowledge: Durations,
  process: Durations,
  openAtEnd: integer(),
  withoutNote: integer(),
  lateAcknowledge: integer(),
  lateProcess: integer(),
});
export type AlarmFigures = Infer<typeof AlarmFigures>;
/** One group's figures: `key` the priority, event code, operator's user name or hour (as text), `label` what to show. */
export const AlarmGroupRow = type({ key: string(), label: string(), figures: AlarmFigures });
export type AlarmGroupRow = Infer<typeof AlarmGroupRow>;
export const AlarmTargets = type({ priority: integer(), ackMinutes: integer(), processMinutes: integer() });
export const AlarmHandlingReport = type({
  from: string(),
  to: string(),
  zone: string(),
  /** the period's instants: [start, end) */
  start: string(),
  end: string(),
  targets: array(AlarmTargets),
  total: AlarmFigures,
  priority: array(AlarmGroupRow),
  type: array(AlarmGroupRow),
  operator: array(AlarmGroupRow),
  hour: array(AlarmGroupRow),
  /** issue 50: the ISA-18.2 alarm-management figures of the period (server/alarms/figures.ts) */
  management: optional(AlarmManagementFigures),
});
export type AlarmHandlingReport = Infer<typeof AlarmHandlingReport>;

/** The figures a click can open: which alarms of a group are behind it. */
export const ALARM_FIGURES = ['raised', 'acknowledged', 'processed', 'open', 'withoutNote', 'lateAcknowledge', 'lateProcess'] as const;
export type AlarmFigure = (typeof ALARM_FIGURES)[number];

/**
 * The event report's URL parameters for the alarms behind a figure: alarms only, the period's instants, the group
 * (eventCode for a type, priority, operator, hour) and the figure. The events list validates each (400 naming it).
 */
export function alarmFigureQuery(r: { start: string; end: string }, group: AlarmGrouping | 'total', key: string, figure: AlarmFigure): Record<string, string> {
  const q: Record<string, string> = { alert: 'true', from: r.start, to: r.end, alarmFigure: figure };
  if (group === 'priority') q.alarmPriority = key;
  if (group === 'type') q.eventCode = key;
  if (group === 'operator') q.alarmOperator = key === '' ? '-' : key;
  if (group === 'hour') q.alarmHour = key;
  return q;
}
/** The event report's URL parameters alarmFigureQuery adds (the screen keeps them across its own filters). */
export const ALARM_FIGURE_PARAMS = ['alarmFigure', 'alarmPriority', 'alarmOperator', 'alarmHour'] as const;
