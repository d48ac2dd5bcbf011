// Event codes beyond §4's hardware status codes, alarm types (priority + operator instructions), and the REST
// bodies of the monitor: alarm commands and history, event history, door commands, the test-only simulate hook.
// Event points are strings with a kind prefix (`door-3`, `reader-3`, `input-3`, `output-3`, `iface-1`,
// `ctrl-1`) so ids of different tables never collide on one point.
import { array, boolean, enums, integer, literal, nullable, object, optional, size, string, type, type Infer } from './structs';
import { Event, STATUS_CODES } from './realtime';
import { idInt, int32, requiredText } from './primitives';
import { SentenceKey } from './messages';

export const EVENT_CODES = {
  interfaceOnline: 1012,
  interfaceOffline: 1013,
  /** Server → Firmware [0.7.1.0]: a controller was sent a firmware image, and has installed it */
  firmwareSent: 1020,
  firmwareInstalled: 1021,
  /** issue 47: a Gatehouse Edge controller's journal holds 80 % of its bound in events the server has not stored yet
   *  (the link has been down long): an alarm on the controller's `journal-<id>` point, back to normal with 1031 */
  edgeJournalFilling: 1030,
  edgeJournalNormal: 1031,
  /** issue 47: a Gatehouse Edge controller dropped undelivered events older than its journal keeps (30 days unless
   *  configured) while offline; sent in their numbers' place, it says how many and from when to when: an alarm */
  edgeEventsLost: 1032,
  inputIdle: 2000,
  inputActive: 2001,
  inputOpen: 2002,
  inputTamper: 2003,
  inputUnknown: 2004,
  /** issue 12: an input of an armed alarm group became active */
  intrusion: 2005,
  outputIdle: 3000,
  outputActive: 3001,
  readerOnline: 4002,
  readerOffline: 4003,
  accessGranted: 5000,
  deniedUnknownCredential: 5001,
  deniedInactiveCredential: 5002,
  deniedInactiveIdentity: 5003,
  // issue 12: the access-decision engine's reasons (contract/decision.ts)
  deniedDoorLockedDown: 5004,
  deniedPin: 5005,
  deniedNoAccessGroup: 5006,
  deniedOutsideSchedule: 5007,
  deniedSpecialDay: 5008,
  deniedAntiPassback: 5009,
  deniedInterlock: 5010,
  deniedCardFormat: 5011,
  deniedQr: 5012,
  /** issue 29: a threat level in force holds the door locked (a lockdown's is 5004) */
  deniedThreatLevel: 5013,
  antiPassbackViolation: 5020,
  doorClosed: 6000,
  doorForcedOpen: 6001,
  doorHeldOpen: 6002,
  doorLocked: 6003,
  doorUnlocked: 6004,
  doorMomentaryUnlock: 6005,
  readerTamper: 6006,
  /** issue 12: an alarm a logical block raised (contract/resources/logicalBlocks.ts) */
  logicAlarm: 7000,
  /** issue 50: a registration or visit request matched the visitor watchlist (contract/watchlist.ts) */
  visitorWatchlistMatch: 7100,
  /** issue 12: elevator floor requests (contract/resources/elevatorMasks.ts) */
  floorFree: 8000,
  floorNeedsCard: 8001,
} as const;
export type EventCode = (typeof EVENT_CODES)[keyof typeof EVENT_CODES];

const LABELS: Record<number, string> = {
  1020: 'Firmware update started',
  1021: 'Firmware installed',
  1030: 'Edge journal 80 % full',
  1031: 'Edge journal below 80 % again',
  1032: 'Edge events lost while offline',
  2005: 'Intrusion: input active in an armed alarm zone',
  5000: 'Access granted',
  5001: 'Access denied: unknown credential',
  5002: 'Access denied: credential not active',
  5003: 'Access denied: identity not active',
  5004: 'Access denied: door locked down',
  5005: 'Access denied: PIN required or wrong',
  5006: 'Access denied: no access group for this door',
  5007: 'Access denied: outside schedule',
  5008: 'Access denied: special day',
  5009: 'Access denied: anti-passback',
  5010: 'Access denied: interlock busy',
  5011: 'Access denied: wrong card format',
  5012: 'Access denied: QR code not valid',
  5013: 'Access denied: threat level',
  5020: 'Anti-passback violation (let through)',
  6000: 'Door closed',
  6001: 'Door forced open',
  6002: 'Door held open',
  6003: 'Door locked',
  6004: 'Door unlocked',
  6005: 'Door momentarily unlocked',
  6006: 'Reader tamper',
  7000: 'Alarm raised by a logical block',
  7100: 'Visitor watchlist match',
  8000: 'Floor free (elevator masking)',
  8001: 'Floor needs a card',
};
/** A human label of any event code (the §4 status codes included). */
export function eventLabel(code: number | string): string {
  const n = Number(code);
  return LABELS[n] ?? STATUS_CODES[n]?.label ?? `Event ${code}`;
}

/** Default alarm types (seeded per database; a tenant may override one later). Lower priority = more urgent. */
export const DEFAULT_ALARM_TYPES: { eventCode: number; name: string; priority: number; instructions: string }[] = [
  {
    eventCode: 6001,
    name: 'Door forced open',
    priority: 1,
    instructions: 'Check the door camera, dispatch a guard to the door, and secure it. Call the police if an intruder is seen.',
  },
  {
    eventCode: 6006,
    name: 'Reader tamper',
    priority: 2,
    instructions: 'Send a guard to inspect the reader for damage or skimming devices; lock the door until it is checked.',
  },
  { eventCode: 2003, name: 'Input tamper', priority: 2, instructions: 'Inspect the sensor and its wiring; note anyone seen near it.' },
  {
    eventCode: 1013,
    name: 'Interface offline',
    priority: 2,
    instructions: 'Check power and network of the controller; doors fall back to their offline mode until it returns.',
  },
  {
    eventCode: 2005,
    name: 'Intrusion',
    priority: 1,
    instructions:
      'An input of an armed alarm zone became active: check the cameras of the zone, send a guard, and call the police if an intruder is seen. Disarm the zone only once it is checked.',
  },
  { eventCode: 6002, name: 'Door held open', priority: 3, instructions: 'Ask whoever holds the door to close it; send a guard if it stays open.' },
  {
    eventCode: 5020,
    name: 'Anti-passback violation',
    priority: 3,
    instructions:
      'Someone entered a zone they are already in (soft anti-passback let them through): check the camera for tailgating and talk to the card holder.',
  },
  {
    eventCode: 7000,
    name: 'Logical block alarm',
    priority: 2,
    instructions: 'A logical block raised this alarm: read its message, check the place it names, and process the alarm once it is dealt with.',
  },
  {
    eventCode: 7100,
    name: 'Visitor watchlist match',
    priority: 2,
    instructions:
      'A visitor registered or asked for matches the visitor watchlist: call the front desk, compare the photo and date of birth of the entry, and stay until they let the visitor in or send them away.',
  },
  {
    eventCode: 1030,
    name: 'Edge journal 80 % full',
    priority: 2,
    instructions:
      'A Gatehouse Edge controller has kept most of the events its journal holds without reaching the server: restore its network link before the journal fills (it never drops an undelivered event, but its disk fills).',
  },
  {
    eventCode: 1032,
    name: 'Edge events lost while offline',
    priority: 2,
    instructions:
      'A Gatehouse Edge controller was offline longer than its journal keeps events (30 days unless configured) and dropped the oldest: the message says how many and from when to when. Those swipes and alarms are not in the history; find out why the controller stayed offline.',
  },
  {
    eventCode: 4003,
    name: 'Card reader offline',
    priority: 4,
    instructions: 'Check the reader cable and the controller port; use the override key if people are locked out.',
  },
];

const camel = (name: string) =>
  name
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
/** The key of each built-in alarm type's instructions (the catalogue's scheme: `alarmType.doorForcedOpen.instructions`). */
export const DEFAULT_INSTRUCTIONS_KEYS: ReadonlyMap<number, { code: string; instructions: string }> = new Map(
  DEFAULT_ALARM_TYPES.map((t) => [t.eventCode, { code: `alarmType.${camel(t.name)}.instructions`, instructions: t.instructions }]),
);
/**
 * Issue 48: the key of an alarm's instructions when they are the built-in default's own words for its event code (the
 * server wrote them: the console says them in the operator's language); instructions a person wrote, a tenant's or a
 * changed default, have none and are shown as written.
 */
export function defaultInstructionsCode(eventCode: number, instructions: string | null | undefined): string | undefined {
  const d = DEFAULT_INSTRUCTIONS_KEYS.get(eventCode);
  return d && instructions === d.instructions ? d.code : undefined;
}

/** An alarm type; `instructionsCode` when its instructions are the built-in ones (issue 48: said by the key). */
export const AlarmType = type({ eventCode: integer(), name: string(), priority: integer(), instructions: string(), instructionsCode: optional(SentenceKey) });
export type AlarmType = Infer<typeof AlarmType>;

export type AlarmState = 'raised' | 'acknowledged' | 'processed';
export const AlarmHistoryEntry = type({
  id: integer(),
  alarmId: integer(),
  action: enums(['raised', 'viewed', 'acknowledged', 'processed']),
  actor: nullable(string()),
  note: nullable(string()),
  at: string(),
});
export type AlarmHistoryEntry = Infer<typeof AlarmHistoryEntry>;

const nonBlank = (max: number) => requiredText(max);
/** The longest operator note an alarm's processing keeps (characters); the console shows it and counts toward it. */
export const ALARM_NOTE_MAX = 1000;
/** Process an alarm: the operator's note is required, at most ALARM_NOTE_MAX characters (never cut: refused beyond). */
export const ProcessAlarmBody = object({ note: nonBlank(ALARM_NOTE_MAX) });
export type ProcessAlarmBody = Infer<typeof ProcessAlarmBody>;

export const DOOR_COMMANDS = ['lock', 'unlock', 'momentary-unlock'] as const;
export type DoorCommand = (typeof DOOR_COMMANDS)[number];
/** `force`: send it even where it makes no sense for the door's state (contract/doors.ts), which is 409 otherwise. */
export const DoorCommandBody = object({ command: enums(DOOR_COMMANDS), force: optional(boolean()) });
/** A door as the doors list shows it: the stored status, its division, and when its state last changed (the time
 *  of its latest door-state event, 6000-6005; null before the first). */
export const DoorView = type({
  id: integer(),
  name: string(),
  status: string(),
  divisionId: nullable(integer()),
  divisionName: nullable(string()),
  lastChangedAt: nullable(string()),
  /** the door's mode (contract/resources/doors.ts DOOR_MODES); 'locked-down' while a lockdown holds it */
  mode: optional(string()),
  /** issue 29: what holds the door locked against commands besides a lockdown: the threat level in force here that
   *  holds doors locked (decided by the access engine's rule, access/engine.ts threatAt); null: nothing */
  heldBy: optional(nullable(type({ kind: literal('threat'), levelId: integer(), rank: integer(), name: string() }))),
  /** issue 47: in a zone of hard anti-passback, on a Gatehouse Edge controller that is offline: soft (grant and log)
   *  until it reconnects; which controllers, offline since when (null: never connected) */
  softApb: optional(nullable(type({ controllers: string(), since: nullable(string()) }))),
});
/** Lock down every door the caller controls (on), or release the doors a lockdown holds (off). */
/** `divisionId`: only the doors of that division and the divisions inside it (a site, a building); else every door. */
export const LockdownBody = object({ on: boolean(), divisionId: optional(nullable(idInt())) });
/** A door a lockdown or threat level could not command now (its Gatehouse Edge controller offline): why, for the
 *  console. Its mode is recorded all the same and reaches the door with the edge's snapshot when it reconnects. */
/** A door a lockdown or threat level could not reach now (its edge controller offline), with why; `doorName` for the console. */
export const DoorUnreached = type({ doorId: integer(), message: string(), doorName: optional(string()) });
export type DoorUnreached = Infer<typeof DoorUnreached>;
export const LockdownAnswer = type({ on: boolean(), doors: integer(), unreached: optional(array(DoorUnreached)) });

// ---------- threat levels (issue 12) ----------
/** POST `${threatLevelsResource.api}/current`: put a level in force (null: lower to none) for the whole client or one
 *  division (a site, with the divisions inside it), for `minutes` (then it reverts to none by itself) or until lowered. */
export const ThreatSetBody = object({
  levelId: nullable(idInt()),
  divisionId: optional(nullable(idInt())),
  minutes: optional(nullable(size(integer(), 1, 10_080))),
});
export type ThreatSetBody = Infer<typeof ThreatSetBody>;
/** GET/POST `${threatLevelsResource.api}/current`: the level in force (none: level null) and where, by whom, until when. */
export const ThreatState = type({
  level: nullable(type({ id: integer(), name: string(), rank: integer(), mode: string() })),
  divisionId: nullable(integer()),
  divisionName: nullable(string()),
  setAt: nullable(string()),
  setBy: nullable(string()),
  /** issue 50: the person's name (the screens said "Set by operator", a username) */
  setByName: optional(nullable(string())),
  until: nullable(string()),
  /** issue 47, the answer to setting a level that holds the doors locked: the doors it could not lock now */
  unreached: optional(array(DoorUnreached)),
});
export type ThreatState = Infer<typeof ThreatState>;
/**
 * GET `${threatLevels.api}/current/choices` (door control, 0.4.5.4): what the caller may set, without the override
 * codes that configure the levels: the client's levels by rank, the sites (divisions) whose doors they control, and
 * whether they control them all (then "the whole client" may be chosen).
 */
export const ThreatChoices = type({
  levels: array(type({ id: integer(), name: string(), rank: integer(), mode: string() })),
  sites: array(type({ id: integer(), name: string() })),
  wholeClient: boolean(),
});
export type ThreatChoices = Infer<typeof ThreatChoices>;

// ---------- door QR codes (issue 12) [0.4.5.5] ----------
/** GET `${API.doors}/qr`: the doors the caller may give QR codes to, and whether each takes them. */
export const DoorQrRow = type({ id: integer(), name: string(), divisionName: nullable(string()), qr: boolean() });
export type DoorQrRow = Infer<typeof DoorQrRow>;
/** POST `${API.doors}/:id/qr` {on}: the door takes rotating QR codes (a new secret each time it is turned on) or not. */
export const DoorQrBody = object({ on: boolean() });
/** GET `${API.doors}/:id/qr/code?credential=…[&at=…]`: the code a credential shows at the door now (or at a past
 *  instant `at`, never a future one), as a phone would. */
export const DoorQrCode = type({
  code: string(),
  credential: string(),
  identityName: nullable(string()),
  periodS: integer(),
  validFrom: string(),
  validTo: string(),
});
export type DoorQrCode = Infer<typeof DoorQrCode>;
/** A shown code is read again this long after its period ends when the server's `/dynamic-qr` notice has not come. */
export const DOOR_QR_RENEW_GRACE_MS = 2000;
export type DoorView = Infer<typeof DoorView>;

export const SIMULATE_KINDS = [
  'door.forced',
  'door.held',
  'door.closed',
  'card.granted',
  'card.denied',
  'reader.tamper',
  'reader.offline',
  'reader.online',
  'interface.offline',
  'interface.online',
  'input.tamper',
  'input.idle',
  // issue 12: one input (inputId) becomes active or idle; active in an armed alarm group raises an intrusion alarm
  'input.active',
  'input.normal',
  // issue 12: a QR code (`qr`) shown at the door's reader
  'qr.presented',
  // issue 12: a floor (`floor`) pressed in the elevator of reader `readerId`, with a card (`card`) or none
  'elevator.floor',
] as const;
export type SimulateKind = (typeof SIMULATE_KINDS)[number];
/** The test-only hook (E2E=1 or tests): force a simulator event instead of waiting for randomness. */
export const SimulateBody = object({
  kind: enums(SIMULATE_KINDS),
  doorId: optional(idInt()),
  controllerId: optional(idInt()),
  inputId: optional(idInt()),
  // issue 12: a swipe of a given card, at a given time (ISO; the simulated clock), on the entry or exit reader
  card: optional(requiredText(64)),
  at: optional(requiredText(40)),
  side: optional(enums(['entry', 'exit'])),
  qr: optional(requiredText(200)),
  readerId: optional(idInt()),
  floor: optional(int32(0, 199)),
});
export type SimulateBody = Infer<typeof SimulateBody>;

// ---------- controller diagnostics (issue 12) [0.5.6.4] ----------
/** GET `/event/manage/controllers/diagnostic/:ipAddress`: what a controller reports of itself, what is wired to it,
 *  and its latest events (its own and those of the doors, readers, inputs and outputs wired to it). */
export const ControllerDiagnostic = type({
  controller: type({
    id: integer(),
    name: string(),
    ipAddress: string(),
    status: string(),
    firmware: nullable(string()),
    onlineSince: nullable(string()),
    divisionName: nullable(string()),
  }),
  wiring: type({ doors: integer(), readers: integer(), inputs: integer(), outputs: integer() }),
  lastHeardAt: nullable(string()),
  events: array(Event),
});
export type ControllerDiagnostic = Infer<typeof ControllerDiagnostic>;
/** GET `…/controllers/hub` [0.5.7.0]: every controller of the client with what it reports and what is wired to it. */
export const ControllerHubRow = type({
  id: integer(),
  name: string(),
  ipAddress: string(),
  status: string(),
  firmware: nullable(string()),
  onlineSince: nullable(string()),
  divisionName: nullable(string()),
  doors: integer(),
  readers: integer(),
  inputs: integer(),
  outputs: integer(),
  interfaces: integer(),
});
export type ControllerHubRow = Infer<typeof ControllerHubRow>;
/** POST `…/diagnostic/:ipAddress/ping`: whether the controller answered, and how fast. */
export const PingAnswer = type({ reachable: boolean(), ms: nullable(integer()), at: string() });
export type PingAnswer = Infer<typeof PingAnswer>;
