// The site at any moment (issue 50): Monitor → Floor plan [0.2.3.0] shows a past moment T of the last 30 days, rebuilt
// from what is stored — each pinned door's state (its last door-state event up to T) and mode (the door's mode as
// the audited edits and lockdowns left it at T), the alarms open at T, the threat level in force at T and who was in
// which access zone at T (the last granted swipe of each person up to T, as anti-passback keeps it live).
// Each part is answered only to holders of the privilege of the live screen that shows it; otherwise it is null.
import { array, boolean, enums, integer, nullable, object, string, type Infer } from './structs';
import { MessageKeyed, fill } from './messages';
import { isoInstant, type Problem } from './primitives';

/** How far back the floor plan's time slider goes. */
export const FLOOR_PLAN_HISTORY_DAYS = 30;
export const FLOOR_PLAN_HISTORY_MS = FLOOR_PLAN_HISTORY_DAYS * 24 * 3600_000;
/** At most this many alarms are listed for a period (the newest first) and open at a moment. */
export const FLOOR_PLAN_HISTORY_ALARMS = 200;
/** Play-back speeds of the slider: times real time. */
export const FLOOR_PLAN_PLAY_SPEEDS = [1, 10, 60] as const;
/** How often a playing slider moves on and asks again (real milliseconds). */
export const FLOOR_PLAN_PLAY_STEP_MS = 1000;

export const floorPlanAtPath = (api: string) => `${api}/:id/at`;
export const floorPlanAlarmsPath = (api: string) => `${api}/:id/alarms`;

export const FloorPlanAtQuery = object({ t: isoInstant() });
export type FloorPlanAtQuery = Infer<typeof FloorPlanAtQuery>;
export const FloorPlanAlarmsQuery = object({ from: isoInstant(), to: isoInstant() });
export type FloorPlanAlarmsQuery = Infer<typeof FloorPlanAlarmsQuery>;

export const PastDoor = object({
  doorId: integer(),
  /** the state its last door-state event up to T left it in; null: no such event (or no right to see doors) */
  status: nullable(string()),
  mode: nullable(string()),
  changedAt: nullable(string()),
});
export type PastDoor = Infer<typeof PastDoor>;

export const PastAlarm = object({
  eventId: integer(),
  eventCode: integer(),
  message: string(),
  /** issue 48: its event's message as a sentence (the console says it by the key), when it was stored with one */
  ...MessageKeyed,
  priority: integer(),
  raisedAt: string(),
  /** at T: not yet acknowledged, or acknowledged and not yet processed */
  state: enums(['raised', 'acknowledged']),
  /** the pinned door it came from, when it came from one */
  doorId: nullable(integer()),
});
export type PastAlarm = Infer<typeof PastAlarm>;

export const PastThreat = object({
  level: string(),
  divisionId: nullable(integer()),
  divisionName: nullable(string()),
  setAt: string(),
  until: nullable(string()),
});
export type PastThreat = Infer<typeof PastThreat>;

export const PastZone = object({
  zoneId: integer(),
  name: string(),
  people: array(object({ identityId: integer(), name: string(), since: string() })),
});
export type PastZone = Infer<typeof PastZone>;

export const FloorPlanAt = object({
  planId: integer(),
  at: string(),
  doors: array(PastDoor),
  alarms: nullable(array(PastAlarm)),
  threat: nullable(PastThreat),
  /** whether the caller may see the threat level (null threat then means none was in force) */
  threatShown: boolean(),
  zones: nullable(array(PastZone)),
});
export type FloorPlanAt = Infer<typeof FloorPlanAt>;

export const FloorPlanAlarms = object({ items: array(PastAlarm) });
export type FloorPlanAlarms = Infer<typeof FloorPlanAlarms>;

/** The violation of a moment outside the slider's range (null: fine). */
export function pastMomentProblem(t: number, now: number): Problem | null {
  if (t > now + 60_000) return 'must not be in the future';
  if (t < now - FLOOR_PLAN_HISTORY_MS) return fill('moment.beyondHistory', 'must be within the last {days} days', { days: FLOOR_PLAN_HISTORY_DAYS });
  return null;
}
