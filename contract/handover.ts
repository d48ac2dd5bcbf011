// The shift handover (issue 31, part 3). A client's shifts end at its shift boundaries (shift settings [0.2.6.2],
// local times of day in the client's zone, e.g. 07:00, 15:00, 23:00; daylight saving is the database's zone rules).
// At each boundary the digest of the shift that ended, [previous boundary, this boundary):
//   - alarms raised in the shift (per priority), processed in it, and those open at its end with their history notes
//     (acknowledged by whom, processed later with which note);
//   - doors not in their normal mode now: an alarm or unlocked status (held or forced open, unlocked, offline,
//     tamper), a mode other than card (unlocked, locked, locked down), an override in force, and the threat level in
//     force — each with since when;
//   - hardware offline now (controllers, readers) and since when;
//   - visitors still signed in (on site);
//   - notable denials: the shift's denied swipes (codes 5001–5019) per reason, and the credentials denied
//     DENIAL_REPEAT times or more.
// Events (alarms, denials) are counted in the shift's window; states (doors, hardware, visitors) are as the digest is
// read (`asOf`): what the incoming operator takes over. An acknowledgement keeps the digest as it was acknowledged.
// Division scope as the alarms: events, doors and controllers of the operator's divisions (and of none).
// Codes: 0.2.6.0 view the handover, 0.2.6.1 acknowledge it (with a note for the next shift), 0.2.6.2 shift settings.
import { array, boolean, integer, nullable, object, optional, string, type, type Infer } from './structs';
import { isoInstant, safeText } from './primitives';

export const HANDOVER_API = '/event/handover';
/** The note for the next shift: at most this many characters. */
export const HANDOVER_NOTE_MAX = 1000;
/** A credential denied this many times in one shift is notable. */
export const DENIAL_REPEAT = 3;
/** The denial codes (contract/monitor.ts EVENT_CODES 5001–5019). */
export const DENIAL_CODES = { from: 5001, to: 5019 } as const;
export const DEFAULT_SHIFT_BOUNDARIES = '07:00, 15:00, 23:00';
/** At most this many boundaries a day (every two hours). */
export const SHIFT_BOUNDARIES_MAX = 12;
/** One to twelve 24-hour times, separated by commas (spaces allowed). */
export const SHIFT_BOUNDARIES_PATTERN = /^\s*([01]\d|2[0-3]):[0-5]\d(\s*,\s*([01]\d|2[0-3]):[0-5]\d){0,11}\s*$/;

/** The boundaries written in the settings, as sorted distinct 'HH:mm' (the default when the text is not valid). */
export function shiftBoundaries(text: string | null | undefined): string[] {
  const t = String(text ?? '');
  const valid = SHIFT_BOUNDARIES_PATTERN.test(t) ? t : DEFAULT_SHIFT_BOUNDARIES;
  return [...new Set(valid.split(',').map((s) => s.trim()))].sort();
}

export const HandoverNote = type({ at: string(), actor: nullable(string()), action: string(), note: string() });
export const HandoverAlarm = type({
  id: integer(),
  priority: integer(),
  name: string(),
  point: string(),
  raisedAt: string(),
  state: string(),
  acknowledgedBy: nullable(string()),
  processedAt: nullable(string()),
  notes: array(HandoverNote),
});
export type HandoverAlarm = Infer<typeof HandoverAlarm>;
export const HANDOVER_DOOR_KINDS = ['status', 'mode', 'override'] as const;
export const HandoverDoor = type({
  id: integer(),
  name: string(),
  division: nullable(string()),
  /** status: an alarm or unlocked status; mode: not card; override: an override in force (`detail` its name, `until`) */
  kind: string(),
  state: string(),
  detail: nullable(string()),
  since: nullable(string()),
  until: nullable(string()),
});
export type HandoverDoor = Infer<typeof HandoverDoor>;
export const HandoverThreat = type({
  name: string(),
  rank: integer(),
  mode: string(),
  division: nullable(string()),
  since: string(),
  setBy: string(),
  until: nullable(string()),
});
export const HandoverOffline = type({ kind: string(), id: integer(), name: string(), since: nullable(string()) });
export type HandoverOffline = Infer<typeof HandoverOffline>;
export const HandoverVisitor = type({ id: integer(), name: string(), company: nullable(string()), host: string(), signedInAt: nullable(string()) });
export type HandoverVisitor = Infer<typeof HandoverVisitor>;
export const HandoverDenials = type({
  total: integer(),
  byReason: array(type({ code: integer(), label: string(), count: integer() })),
  repeated: array(type({ credential: string(), name: nullable(string()), count: integer(), doors: array(string()) })),
});
export const HandoverAck = type({ id: integer(), by: string(), name: string(), at: string(), note: nullable(string()) });
export type HandoverAck = Infer<typeof HandoverAck>;
/** Issue 50: an alarm source shelved at some time of the shift (begun in it, or still running when it began). */
export const HandoverShelving = type({
  id: integer(),
  pointName: nullable(string()),
  reason: string(),
  by: string(),
  at: string(),
  until: string(),
  endedAt: nullable(string()),
});
export type HandoverShelving = Infer<typeof HandoverShelving>;

export const HandoverDigest = type({
  zone: string(),
  /** the shift: [start, end) */
  start: string(),
  end: string(),
  /** when the states were read */
  asOf: string(),
  alarms: type({ raised: integer(), processed: integer(), byPriority: array(type({ priority: integer(), count: integer() })), open: array(HandoverAlarm) }),
  doors: array(HandoverDoor),
  threatLevel: nullable(HandoverThreat),
  offline: array(HandoverOffline),
  visitors: array(HandoverVisitor),
  denials: HandoverDenials,
  /** issue 50: the alarm sources shelved during the shift (absent in handovers acknowledged before) */
  shelvings: optional(array(HandoverShelving)),
  /** null: not acknowledged yet */
  acknowledgement: nullable(HandoverAck),
  /** the note left for this shift's successor by whoever acknowledged the shift before (null: none) */
  previousNote: nullable(type({ by: string(), name: string(), at: string(), note: string() })),
});
export type HandoverDigest = Infer<typeof HandoverDigest>;

/** `GET /event/handover?end=` — the shift that ended at `end` (one of the client's boundaries, not in the future). */
export const HandoverQuery = object({ end: isoInstant() });
/** `POST /event/handover/acknowledge` — the shift ending at `end`, and an optional note for the next shift. */
export const AcknowledgeHandoverBody = object({ end: isoInstant(), note: optional(nullable(safeText(HANDOVER_NOTE_MAX, { trim: true }))) });
export type AcknowledgeHandoverBody = Infer<typeof AcknowledgeHandoverBody>;
/** `GET /event/handover/history` — the acknowledged handovers, newest first. */
export const HandoverHistoryRow = type({
  id: integer(),
  start: string(),
  end: string(),
  by: string(),
  name: string(),
  at: string(),
  note: nullable(string()),
  open: integer(),
});
export const HandoverHistory = type({ items: array(HandoverHistoryRow) });
export type HandoverHistory = Infer<typeof HandoverHistory>;
export const HandoverAcknowledged = type({ id: integer(), acknowledged: boolean() });
