// Real-time channels (§7): STOMP 1.2 over SockJS, one endpoint per service. The destinations, the SockJS
// prefixes, the hardware status codes (§4) and a schema for every message body, shared by the broker
// (server/realtime) and the socket machine (machines/socket.ts), which validates each body at the edge.
import { array, assign, boolean, define, defaulted, enums, integer, nullable, number, optional, string, type, union, type Infer, type Struct } from './structs';
import { MessageKeyed, SentenceKey } from './messages';

// ---------- services and destinations ----------

export type RealtimeService = 'event' | 'central' | 'visitor';
export const REALTIME_SERVICES = ['event', 'central', 'visitor'] as const satisfies readonly RealtimeService[];

/** The SockJS endpoint of each service; the STOMP session runs inside it (`new SockJS(origin + prefix)`). */
export const SOCKJS_PREFIX: Record<RealtimeService, string> = {
  event: '/ws/event',
  central: '/ws/central',
  visitor: '/ws/visitor',
};

export const DESTINATIONS = {
  events: '/events', // also `/events/{suffix}`
  alarmAction: '/alarmaction',
  hardware: '/noty/hardware',
  alarmCount: '/alarmcount',
  greetings: '/topic/greetings',
  acknowledge: '/acknowledge/event',
  doorHeartbeat: '/hbdoor',
  controllerHeartbeat: '/hbcontroller',
  clocking: '/clocking',
  dynamicQr: '/dynamic-qr',
  // an alarm notification told to an operator group's consoles (each member only): {notification, alarm}
  alarmNotice: '/notice/alarm',
  // a catalogue resource changed (`/changes/{resource}`): {resource, id, action}, so open lists read again
  changes: '/changes',
  // issue 46: a controller's OSDP readers changed (its edge reported them, its link came or went): {controllerId, online, reportedAt}
  osdpReaders: '/osdp-readers',
} as const;
export type Destination = (typeof DESTINATIONS)[keyof typeof DESTINATIONS];

export const SERVICE_DESTINATIONS: Record<RealtimeService, readonly Destination[]> = {
  event: [
    DESTINATIONS.events,
    DESTINATIONS.alarmAction,
    DESTINATIONS.hardware,
    DESTINATIONS.alarmCount,
    DESTINATIONS.greetings,
    DESTINATIONS.acknowledge,
    DESTINATIONS.doorHeartbeat,
    DESTINATIONS.alarmNotice,
  ],
  central: [DESTINATIONS.controllerHeartbeat, DESTINATIONS.osdpReaders],
  visitor: [DESTINATIONS.clocking, DESTINATIONS.dynamicQr],
};

/** Destinations a console may SEND to (the rest are server → console only). */
export const CLIENT_SENDABLE: readonly string[] = [DESTINATIONS.greetings];

const EVENTS_SUFFIX = /^\/events\/[A-Za-z0-9._~-]{1,64}$/;
const CHANGES_SUFFIX = /^\/changes\/[A-Za-z][A-Za-z0-9]{0,63}$/;
/** The resource of a `/changes/{resource}` destination, or null. */
export const changedResourceOf = (destination: string) => (CHANGES_SUFFIX.test(destination) ? destination.slice('/changes/'.length) : null);

/** The base destination of a concrete one: `/events/door-3` → `/events`; unknown → null. */
export function baseDestination(destination: string): Destination | null {
  if (EVENTS_SUFFIX.test(destination)) return DESTINATIONS.events;
  if (CHANGES_SUFFIX.test(destination)) return DESTINATIONS.changes;
  const all = Object.values(DESTINATIONS) as string[];
  return all.includes(destination) ? (destination as Destination) : null;
}

/** Destinations already asked about: the broker asks for every message it publishes (thousands a second, issue 30)
 *  and for every subscription. Bounded, as a subscriber may name any destination. */
const serviceMemo = new Map<string, RealtimeService | null>();
const SERVICE_MEMO_MAX = 1000;

/** The service that carries a destination, or null when no service does. */
export function serviceOfDestination(destination: string): RealtimeService | null {
  const known = serviceMemo.get(destination);
  if (known !== undefined) return known;
  const service = findServiceOf(destination);
  if (serviceMemo.size >= SERVICE_MEMO_MAX) serviceMemo.clear();
  serviceMemo.set(destination, service);
  return service;
}

function findServiceOf(destination: string): RealtimeService | null {
  if (changedResourceOf(destination) !== null) return 'central';
  const base = baseDestination(destination);
  if (!base) return null;
  for (const s of REALTIME_SERVICES) if (SERVICE_DESTINATIONS[s].includes(base)) return s;
  return null;
}

export function isDestinationOf(service: RealtimeService, destination: string): boolean {
  return serviceOfDestination(destination) === service;
}

// ---------- hardware status codes (§4, §7) ----------

export type HardwareKind = 'interface' | 'cardReader' | 'input' | 'output';
export interface StatusCode {
  kind: HardwareKind;
  status: string;
  label: string;
}

export const STATUS_CODES: Readonly<Record<number, StatusCode>> = {
  1012: { kind: 'interface', status: 'online', label: 'Interface online' },
  1013: { kind: 'interface', status: 'offline', label: 'Interface offline' },
  4002: { kind: 'cardReader', status: 'online', label: 'CardReader online' },
  4003: { kind: 'cardReader', status: 'offline', label: 'CardReader offline' },
  2000: { kind: 'input', status: 'idle', label: 'Input idle' },
  2001: { kind: 'input', status: 'active', label: 'Input active' },
  2002: { kind: 'input', status: 'open', label: 'Input open' },
  2003: { kind: 'input', status: 'tamper', label: 'Input tamper' },
  2004: { kind: 'input', status: 'unknown', label: 'Input unknown' },
  3000: { kind: 'output', status: 'idle', label: 'Output idle' },
  3001: { kind: 'output', status: 'active', label: 'Output active' },
};

export function statusOfCode(code: unknown): StatusCode | null {
  const n = typeof code === 'string' && /^\d+$/.test(code) ? Number(code) : code;
  return typeof n === 'number' ? (STATUS_CODES[n] ?? null) : null;
}

/** §4: hardware status values as lower-case hyphenated words: 'Door Forced Open' → 'door-forced-open'. */
export function normaliseStatus(value: unknown): string {
  // a status code, as a number or in text (a device that sends '1012' means online, as 1012 does)
  const code = statusOfCode(typeof value === 'string' ? value.trim() : value);
  if (code) return code.status;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return 'unknown';
  const words = value
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2') // doorForcedOpen → door Forced Open
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return words.length ? words.join('-') : 'unknown';
}

// ---------- message bodies ----------

// A whole number or a string. Not union([integer(), string()]): a union builds (and throws away) an error with a
// stack trace for every member that does not match, several per event at thousands of events a second (bench/).
const wholeOrText = (name: string) => define<number | string>(name, (v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)));
const Id = wholeOrText('Id');
const Code = wholeOrText('Code');

/** An event point of an event (door, reader, input…); only id and name are relied upon. */
export const EventPoint = type({ id: Id, name: optional(nullable(string())) });
export type EventPoint = Infer<typeof EventPoint>;

/** `/events`: a stored event. `eventPointId` may be absent: use {@link eventPointIdOf}. */
export const Event = type({
  id: Id,
  eventCode: Code,
  eventPointId: optional(nullable(Id)),
  eventSourceId: Id,
  eventPointName: defaulted(nullable(string()), null),
  eventSourceName: defaulted(nullable(string()), null),
  message: defaulted(string(), ''),
  /** Issue 48: the message's key and values (contract/messages.ts), which the console says in the operator's language;
   *  absent on an event stored before they were kept (its English `message` alone). */
  ...MessageKeyed,
  alert: boolean(),
  acknowledge: defaulted(boolean(), false),
  process: defaulted(boolean(), false),
  eventPoint: defaulted(array(EventPoint), []),
  /** ISO 8601 time of the event. */
  time: string(),
  /** Lower numbers are more urgent (1 first); see compareAlarms. */
  priority: defaulted(integer(), 100),
  /** Operator instructions of the alarm type (what to do for a forced door…), when configured. */
  instructions: optional(nullable(string())),
  /** Issue 48: the key of the instructions when they are a built-in alarm type's own (contract/monitor.ts
   *  defaultInstructionsCode), said in the operator's language; absent on instructions a person wrote. */
  instructionsCode: optional(SentenceKey),
  /** Issue 50: raised while its source is shelved: stored, kept off the consoles' open list. */
  shelved: optional(boolean()),
  /** Issue 50: the escalation step it reached (1 = the first group) and that group's name. */
  escalationStep: optional(integer()),
  escalatedTo: optional(nullable(string())),
  /** Issue 50: the operator or operator group it was forwarded to, and the note. */
  forwardedTo: optional(nullable(string())),
  forwardNote: optional(nullable(string())),
});
export type Event = Infer<typeof Event>;
/** A stored event: the server's history rows carry numeric ids (the real-time short forms may not). */
export const StoredEvent = assign(Event, type({ id: integer() }));
export type StoredEvent = Event & { id: number };

/** `/events/{suffix}`: the short form (§3). Any full Event also passes. */
export const RealtimeEvent = type({ eventCode: Code, eventSourceId: Id, eventSourceName: defaulted(nullable(string()), null) });
export type RealtimeEvent = Infer<typeof RealtimeEvent>;

export const HardwareStatus = type({ id: Id, status: union([string(), number()]) });
export type HardwareStatus = Infer<typeof HardwareStatus>;
/** `/noty/hardware`. */
export const HardwareStatusPush = type({ id: Id, name: defaulted(nullable(string()), null), status: union([string(), number()]) });
export type HardwareStatusPush = Infer<typeof HardwareStatusPush>;
/** `/hbdoor`: doorStatus defaults to closed (§3). */
export const DoorHeartbeat = type({ id: Id, name: defaulted(nullable(string()), null), doorStatus: defaulted(string(), 'closed') });
export type DoorHeartbeat = Infer<typeof DoorHeartbeat>;
export const ControllerHeartbeatItem = type({ id: Id, name: defaulted(nullable(string()), null), status: optional(string()) });
export type ControllerHeartbeatItem = Infer<typeof ControllerHeartbeatItem>;
/** `/hbcontroller`: status stays undefined when absent (§3). */
export const ControllerHeartbeat = array(ControllerHeartbeatItem);
export type ControllerHeartbeat = Infer<typeof ControllerHeartbeat>;
/** `/alarmaction`: with process true, every alert of the point is gone (§4). */
export const AlarmAction = type({
  eventPointId: Id,
  process: boolean(),
  note: optional(nullable(string())),
  /** Issue 50, with process false: one alarm escalated or forwarded (`alarmId`, the new values), or the point's alarms
   *  shelved (off the open list) or back from shelving (the console reads the open list again). */
  change: optional(enums(['escalated', 'forwarded', 'shelved', 'unshelved'])),
  alarmId: optional(Id),
  escalationStep: optional(integer()),
  escalatedTo: optional(nullable(string())),
  forwardedTo: optional(nullable(string())),
});
export type AlarmAction = Infer<typeof AlarmAction>;
/** `/acknowledge/event`. */
export const AcknowledgeUpdate = type({ id: Id, acknowledge: boolean() });
export type AcknowledgeUpdate = Infer<typeof AcknowledgeUpdate>;
/** `/alarmcount`: the server's open count. */
export const AlarmCount = type({ count: integer() });
export type AlarmCount = Infer<typeof AlarmCount>;
/** `/topic/greetings`: the echo channel. */
export const Greeting = type({ content: optional(string()) });
export type Greeting = Infer<typeof Greeting>;
/** `/clocking`: an identity clocked in or out at a visitor point. */
export const Clocking = type({
  id: optional(Id),
  identityId: optional(Id),
  name: optional(nullable(string())),
  time: optional(string()),
  direction: optional(string()),
});
export type Clocking = Infer<typeof Clocking>;
/** `/dynamic-qr`: a door that takes QR codes entered a new period (id: the period number) or got a new secret; `code` is the door's display code for a kiosk (it opens nothing), `expiresAt` when the period ends. */
export const DynamicQr = type({ id: optional(Id), doorId: optional(Id), code: string(), expiresAt: optional(string()) });
export type DynamicQr = Infer<typeof DynamicQr>;

/** `/notice/alarm`: an alarm notification (Configure → Alarm notifications) names this console's user in its operator group. */
export const AlarmNotice = type({
  notificationId: integer(),
  name: string(),
  eventId: Id,
  priority: integer(),
  message: string(),
  /** Issue 48: the alarm's message as a key and values, said in the operator's language (absent: the English alone). */
  ...MessageKeyed,
  at: string(),
  pointName: optional(nullable(string())),
});
export type AlarmNotice = Infer<typeof AlarmNotice>;

/** `/changes/{resource}`: a catalogue row was created, updated, deleted or acted on (ids only: lists read again). */
export const ChangeNotice = type({ resource: string(), id: integer(), action: string() });
export type ChangeNotice = Infer<typeof ChangeNotice>;

/**
 * `/osdp-readers` (issue 46), per tenant and the controller's division: a controller's OSDP readers changed (its edge
 * reported them, or its link came or went). An open Hardware page of that controller or of one of its card readers reads
 * its answer (contract/osdpReaders.ts) again at once, and again on a reconnect of its socket: nothing polls.
 */
export const OsdpReadersNotice = type({ controllerId: integer(), online: boolean(), reportedAt: nullable(string()) });
export type OsdpReadersNotice = Infer<typeof OsdpReadersNotice>;

/** A request body of the alarm REST commands (acknowledge / process with a note). */
export const AlarmProcessRequest = type({ note: defaulted(string(), '') });

const BODY_SCHEMA: Record<Destination, Struct<any, any>> = {
  '/events': Event,
  '/alarmaction': AlarmAction,
  '/noty/hardware': HardwareStatusPush,
  '/alarmcount': AlarmCount,
  '/topic/greetings': Greeting,
  '/acknowledge/event': AcknowledgeUpdate,
  '/hbdoor': DoorHeartbeat,
  '/hbcontroller': ControllerHeartbeat,
  '/clocking': Clocking,
  '/dynamic-qr': DynamicQr,
  '/notice/alarm': AlarmNotice,
  '/changes': ChangeNotice,
  '/osdp-readers': OsdpReadersNotice,
};

/** The schema of a destination's body: `/events` is a full Event, `/events/{suffix}` a RealtimeEvent. */
export function schemaForDestination(destination: string): Struct<any, any> | null {
  const base = baseDestination(destination);
  if (!base) return null;
  if (base === DESTINATIONS.events && destination !== DESTINATIONS.events) return RealtimeEvent;
  return BODY_SCHEMA[base];
}

// ---------- alarm helpers (§3, §4) ----------

/** §3: eventPointId falls back to eventSourceId. */
export function eventPointIdOf(e: { eventPointId?: string | number | null; eventSourceId: string | number }): string | number {
  return e.eventPointId ?? e.eventSourceId;
}

/** Ids compare by value whatever their JSON type (7 and '7' are the same point). */
export const sameId = (a: string | number | null | undefined, b: string | number | null | undefined) =>
  a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);

/** Open alarms order: priority first (1 before 2), then the newest first. */
export function compareAlarms(a: Pick<Event, 'priority' | 'time'>, b: Pick<Event, 'priority' | 'time'>): number {
  if (a.priority !== b.priority) return a.priority - b.priority;
  return a.time < b.time ? 1 : a.time > b.time ? -1 : 0;
}

/** The destination a refusal of the live connection names (an ERROR frame's `values` header, JSON: { destination },
 *  server/realtime/session.ts), or null when it names none. */
export function refusedDestination(values: string | undefined): string | null {
  try {
    const v = JSON.parse(values ?? 'null') as { destination?: unknown } | null;
    return typeof v?.destination === 'string' ? v.destination : null;
  } catch {
    return null;
  }
}
