// Alarm management as ISA-18.2 / IEC 62682 says (issue 50; server/alarms/, machines/alarms.ts):
//  - escalation: an alarm nobody acknowledged within its priority's target (alarm settings) goes to the first
//    escalation group, another target later to the second, then the third (ALARM_ESCALATION_STEPS);
//  - forward: an alarm handed to an operator or an operator group with a note;
//  - shelving: an alarm source (event point) kept off the consoles for a time with a reason; its alarms are still
//    stored; it comes back by itself when the time ends (or an operator ends it sooner);
//  - flood: more than ALARM_FLOOD_COUNT alarms within ALARM_FLOOD_WINDOW_MS for one operator;
//  - chatter: a source raising more than ALARM_CHATTER_COUNT times within ALARM_CHATTER_WINDOW_MS;
//  - stale: an alarm still open ALARM_STALE_HOURS after it was raised.
import { integer, nullable, number, object, optional, string, type, array, type Infer } from './structs';
import { idInt, int32, requiredText } from './primitives';

/** Escalation groups in the alarm settings (first, second, third). */
export const ALARM_ESCALATION_STEPS = 3;
/** How often a server looks for alarms due to escalate and shelvings whose time is up. */
export const ALARM_SWEEP_MS = 5000;
export const ALARM_FLOOD_COUNT = 10;
export const ALARM_FLOOD_WINDOW_MS = 10 * 60_000;
export const ALARM_CHATTER_COUNT = 3;
export const ALARM_CHATTER_WINDOW_MS = 60_000;
export const ALARM_STALE_HOURS = 24;
/** A shelving lasts 1 minute to a week. */
export const SHELVE_MAX_MINUTES = 10_080;
export const SHELVE_REASON_MAX = 500;
export const FORWARD_NOTE_MAX = 1000;
/** The lengths a shelving dialog offers (minutes); any other within the bounds is accepted too. */
export const SHELVE_CHOICES = [15, 60, 240, 480, 1440] as const;

/** `POST …/alarms/shelve`: shelve an alarm source (an event point that raised an alarm) for `minutes` with a reason. */
export const ShelveAlarmBody = object({ pointId: requiredText(100), minutes: int32(1, SHELVE_MAX_MINUTES), reason: requiredText(SHELVE_REASON_MAX) });
export type ShelveAlarmBody = Infer<typeof ShelveAlarmBody>;

/** `POST …/alarms/:id/forward`: to an operator (userId) or an operator group (groupId), exactly one, with a note. */
export const ForwardAlarmBody = object({
  userId: optional(nullable(idInt())),
  groupId: optional(nullable(idInt())),
  note: requiredText(FORWARD_NOTE_MAX),
});
export type ForwardAlarmBody = Infer<typeof ForwardAlarmBody>;

/** The answers: a forward's target and note; the shelving made (the console checks them at the edge). */
export const ForwardedAnswer = type({ id: integer(), forwardedTo: string(), note: string() });
export const ShelvedAnswer = type({ id: integer(), pointId: string(), until: string() });

/** Who an alarm may be forwarded to: the client's operators and operator groups. */
export const ForwardTargets = type({
  operators: array(type({ id: integer(), name: string(), username: string() })),
  groups: array(type({ id: integer(), name: string() })),
});
export type ForwardTargets = Infer<typeof ForwardTargets>;

/** One line of an alarm's history (server/monitor/alarms.ts history). */
export const AlarmHistoryLine = type({
  id: integer(),
  alarmId: integer(),
  action: string(),
  actor: nullable(string()),
  note: nullable(string()),
  at: string(),
  step: optional(nullable(integer())),
});

/** The alarm-management figures of the alarm handling report (contract/alarmHandling.ts). */
export const AlarmManagementFigures = type({
  /** Alarms raised per hour of the period (one operator position: the client's alarm desk). */
  perOperatorHour: number(),
  /** The share (0–1) of the period's 10-minute windows with more than ALARM_FLOOD_COUNT alarms. */
  floodShare: number(),
  floodWindows: integer(),
  windows: integer(),
  /** The 10 sources that raised most alarms. */
  topSources: array(type({ pointId: string(), name: nullable(string()), count: integer() })),
  /** Sources that raised more than ALARM_CHATTER_COUNT alarms within any minute (a sliding window), with how many
   *  bursts (their chattering alarms less than a minute apart) and the alarms in them. */
  chattering: array(type({ pointId: string(), name: nullable(string()), bursts: integer(), count: integer() })),
  /** Alarms still open ALARM_STALE_HOURS after raising, by the period's end (or now). */
  stale: integer(),
  /** Shelvings begun in the period. */
  shelvings: integer(),
  /** Escalation steps taken in the period. */
  escalations: integer(),
});
export type AlarmManagementFigures = Infer<typeof AlarmManagementFigures>;

/** What the console says of a flood: the alarms of the window and its start (pure, tested). */
export function floodOf(times: readonly string[], count = ALARM_FLOOD_COUNT, windowMs = ALARM_FLOOD_WINDOW_MS): { inFlood: boolean; count: number } {
  const ms = times.map((t) => Date.parse(t)).filter((t) => Number.isFinite(t));
  if (!ms.length) return { inFlood: false, count: 0 };
  const newest = Math.max(...ms);
  const n = ms.filter((t) => t > newest - windowMs).length;
  return { inFlood: n > count, count: n };
}

/** Minutes as a person says them: "15 min", "4 h", "1 day". */
export function shelveLength(minutes: number): string {
  if (minutes % 1440 === 0) return `${minutes / 1440} day${minutes === 1440 ? '' : 's'}`;
  if (minutes % 60 === 0) return `${minutes / 60} h`;
  return `${minutes} min`;
}
