// Gatehouse Edge (issue 47): the messages of the one long-lived connection a controller opens OUT to the server
// (`EDGE_CONNECT_PATH`, a WebSocket on the server's one port, the controller's key as `Authorization: Bearer`), and the
// snapshot of what its doors need to decide every swipe with the shared engine (access/engine.ts). Its events go
// through the device interface (contract/ingest.ts DeviceEvent with its `edge` part). Every message both ways is
// checked with these schemas; a bad one is answered with an error naming the field and changes nothing.
import {
  array,
  boolean,
  enums,
  integer,
  literal,
  nullable,
  object,
  optional,
  partial,
  record,
  refine,
  size,
  string,
  tuple,
  union,
  type Infer,
  type Struct,
} from './structs';
import { DECISION_REASONS, type DecisionStep } from './decision';
import { SentenceKey, SentenceValues, type Sentence } from './messages';
import { DOOR_COMMANDS } from './monitor';
import { idInt, int32, requiredText, safeInteger, safeText } from './primitives';

/** Where an edge controller connects (WebSocket upgrade on the server's port). */
export const EDGE_CONNECT_PATH = '/edge/1.0/connect';
/** How long an edge keeps deciding from its snapshot with the server gone, unless the snapshot says otherwise. */
export const EDGE_MAX_OFFLINE_DAYS = 7;
/** A revoked or deleted controller's connection is checked again at least this often (and at once on a change). */
export const EDGE_RECHECK_MS = 2000;
/** An edge controller whose link is gone this long (and not back) raises its interface-offline alarm. */
export const EDGE_OFFLINE_GRACE_MS = 5000;
/** Reconnect back-off of the edge: first wait, doubled each failure up to the last. */
export const EDGE_BACKOFF_MS = { first: 500, max: 15_000 } as const;
/**
 * The edge's link stays honest about a network that goes silent (a cut cable, a router dropping packets: no reset
 * arrives, TCP would wait many minutes): a connection not welcomed within `handshakeMs` is given up and tried again;
 * a connected one pings every `pingMs` and is dropped as offline when nothing (a pong, a message) came for
 * `silentMs`; a batch of events sent up that has no answer within `uploadMs` is sent again.
 */
export const EDGE_LIVENESS_MS = { handshakeMs: 10_000, pingMs: 5_000, silentMs: 15_000, uploadMs: 30_000 } as const;
/** The share of its bound (edge/journal.ts JOURNAL_LIMIT) of undelivered events at which an edge's journal raises
 *  Edge journal 80 % full (1030); it returns to normal (1031) below EDGE_JOURNAL_NORMAL_SHARE. */
export const EDGE_JOURNAL_ALARM_SHARE = 0.8;
export const EDGE_JOURNAL_NORMAL_SHARE = 0.7;
/** Most journaled events one upload carries. */
export const EDGE_UPLOAD_BATCH = 500;

const id = () => idInt();
const name = () => requiredText(200);
const day = () => size(string(), 10, 10); // YYYY-MM-DD
const hhmm = () => size(string(), 5, 5);
/** A time in ms since the epoch, as far as a JavaScript Date reaches (8.64e15). */
export const EDGE_MS_MAX = 8.64e15;
const ms = () => safeInteger(0, EDGE_MS_MAX);

/** What a door does when its snapshot is older than allowed (issue 47): keep deciding, facility code only, or locked. */
export const EDGE_DEGRADED_POLICIES = ['keep', 'facility', 'locked'] as const;
export type EdgeDegradedPolicy = (typeof EDGE_DEGRADED_POLICIES)[number];
/** The inputs of a door the edge watches (contract/resources/hardware.ts INPUT_KINDS): the door contact (active: open)
 *  and the exit button (active: a request to exit). */
export const EDGE_DOOR_INPUT_KINDS = ['door-contact', 'exit-button'] as const;

export const EdgeThreat = object({
  levelId: id(),
  name: name(),
  rank: integer(),
  mode: enums(['card', 'card-pin', 'locked']),
  from: ms(),
  until: nullable(ms()),
  exempt: array(id()),
});
/** Where a strike or input is wired (issue 47): the OSDP bus address of its board (a reader or I/O module on the
 *  controller's bus, Configure / Hardware → Interfaces) and its point there, from 0 as OSDP numbers outputs and
 *  inputs. Absent: not wired to a board, simulated (absent too in a snapshot of a server before 2026-12-04). */
export const EdgeBoardPoint = object({
  address: safeInteger(0),
  point: safeInteger(0),
  /** the board's name (Configure / Hardware → Interfaces): an I/O board with no card reader going offline or coming back
   *  is journaled under it (issue 47); absent in a snapshot of a server before 2026-12-04 */
  board: optional(name()),
  /** a strike wired fail-safe (a magnetic lock: energised to lock, Configure / Hardware); absent: energised to unlock */
  failSafe: optional(literal(true)),
});
export type EdgeBoardPoint = Infer<typeof EdgeBoardPoint>;
export const EdgeDoor = object({
  id: id(),
  name: name(),
  mode: enums(['card', 'card-pin', 'unlocked', 'locked-down']),
  formatIds: array(id()),
  entryZoneId: nullable(id()),
  exitZoneId: nullable(id()),
  interlockIds: array(id()),
  qrSecret: nullable(safeText(200)),
  overrides: array(object({ id: id(), name: name(), mode: enums(['unlocked', 'locked', 'card-pin', 'card']), from: ms(), to: ms() })),
  threat: nullable(EdgeThreat),
  degraded: enums(EDGE_DEGRADED_POLICIES),
  /** the door's lock strike on this controller (Configure / Hardware, an output of type Lock strike at the door) and
   *  how long a grant or a request to exit unlocks it (the output's pulse; 0 there: DOOR_MOMENTARY_MS), and where it is
   *  wired (`at`, last: absent when simulated); null: none */
  strike: nullable(object({ id: id(), name: name(), unlockMs: safeInteger(1), at: optional(EdgeBoardPoint) })),
  /** the door's inputs on this controller: its contact (open: the door is open) and exit buttons (request to exit),
   *  each as wired (Configure / Hardware): `normallyClosed` (its circuit is closed at rest: open is active; else
   *  closed is active), `supervised` (end-of-line resistors: a shorted or cut line is told apart, a tamper), and
   *  where it is wired (`at`, last: absent when simulated) */
  inputs: array(
    object({
      id: id(),
      name: name(),
      kind: enums(EDGE_DOOR_INPUT_KINDS),
      normallyClosed: optional(boolean()),
      supervised: optional(boolean()),
      at: optional(EdgeBoardPoint),
    }),
  ),
  /** a door left open longer than this after a grant or a request to exit is held open (Configure / Doors) */
  heldOpenMs: safeInteger(1000),
});
export type EdgeDoor = Infer<typeof EdgeDoor>;

const window = object({ start: hhmm(), end: hhmm() });
export const EdgeSnapshot = object({
  controllerId: id(),
  controllerName: name(),
  timeZone: requiredText(64),
  qrPeriodS: safeInteger(1),
  /** how long the edge may keep deciding from this snapshot without the server, in days */
  maxOfflineDays: safeInteger(0),
  credentials: array(
    object({
      id: id(),
      identityId: id(),
      number: requiredText(64),
      facilityCode: nullable(integer()),
      status: requiredText(20),
      validFrom: nullable(day()),
      validTo: nullable(day()),
    }),
  ),
  identities: array(
    object({ id: id(), name: name(), status: requiredText(20), validFrom: nullable(day()), validTo: nullable(day()), pin: nullable(requiredText(32)) }),
  ),
  doors: array(EdgeDoor),
  /** the card readers wired to this controller, each on one side of its door, at its address on the reader bus (OSDP) */
  readers: array(object({ id: id(), name: name(), doorId: id(), direction: enums(['entry', 'exit']), address: safeInteger(0) })),
  /** access groups with their doors of this controller: [door id, schedule id] */
  groups: array(object({ id: id(), name: name(), doors: array(tuple([id(), id()])) })),
  /** [identity id, its access group ids] */
  members: array(tuple([id(), array(id())])),
  schedules: array(
    object({ id: id(), name: name(), windows: array(object({ day: integer(), start: hhmm(), end: hhmm() })), special: record(string(), array(window)) }),
  ),
  specialDates: array(object({ date: day(), yearly: boolean(), kind: requiredText(40), name: name() })),
  zones: array(object({ id: id(), name: name(), antiPassback: enums(['off', 'soft', 'hard']), forgiveMinutes: safeInteger(0) })),
  interlocks: array(object({ id: id(), name: name(), doorIds: array(id()) })),
  formats: array(
    object({
      id: id(),
      name: name(),
      bits: integer(),
      facility: nullable(object({ start: integer(), length: integer() })),
      card: object({ start: integer(), length: integer() }),
      parity: array(object({ bit: integer(), type: enums(['even', 'odd']), over: object({ start: integer(), length: integer() }) })),
    }),
  ),
  /** who is where (anti-passback) as the server last knew it: [identity id, zone id or null, ms] */
  presence: array(tuple([id(), nullable(id()), ms()])),
  /** the event codes that raise an alarm for this client (its alarm types: the defaults and its own), ascending: an
   *  alarm raised and back to normal while offline is told to the server as such (absent in a snapshot of a server
   *  before 2026-12-03: the defaults) */
  alarmCodes: optional(array(integer())),
});
export type EdgeSnapshot = Infer<typeof EdgeSnapshot>;

/** The parts of a snapshot that are lists in ascending order of their elements' key (`id`, or a tuple's first): a
 *  delta may change them by element (`patch`, contract/edgeDelta.ts) instead of whole. */
export const EDGE_KEYED_PARTS = [
  'credentials',
  'identities',
  'doors',
  'readers',
  'groups',
  'members',
  'schedules',
  'zones',
  'interlocks',
  'formats',
  'presence',
] as const satisfies readonly (keyof EdgeSnapshot)[];
export type EdgeKeyedPart = (typeof EDGE_KEYED_PARTS)[number];
const elementOf = (part: EdgeKeyedPart) => (EdgeSnapshot.schema[part] as unknown as { schema: Struct<unknown> }).schema;
/** Per keyed part: the elements new or changed (whole), and the keys of those gone. */
export const EdgePatch = object(
  Object.fromEntries(EDGE_KEYED_PARTS.map((p) => [p, optional(object({ upsert: array(elementOf(p)), remove: array(id()) }))])) as Record<
    EdgeKeyedPart,
    Struct<{ upsert: unknown[]; remove: number[] } | undefined>
  >,
);
export type EdgePatch = Partial<Record<EdgeKeyedPart, { upsert: unknown[]; remove: number[] }>>;

// ---------- server → edge ----------
export const EdgeWelcome = object({
  type: literal('welcome'),
  controllerId: id(),
  controllerName: name(),
  /** the last sequence number of this controller's events the server has stored (uploads resume after it) */
  lastSeq: safeInteger(0),
  serverTime: ms(),
});
/** The whole snapshot; `hash` is sha256 (hex) of JSON.stringify(snapshot); `version` only ever grows per controller. */
export const EdgeSnapshotMessage = object({
  type: literal('snapshot'),
  version: safeInteger(1),
  hash: size(string(), 64, 64),
  builtAt: ms(),
  snapshot: EdgeSnapshot,
});
export type EdgeSnapshotMessage = Infer<typeof EdgeSnapshotMessage>;
/**
 * A change as a delta: the parts (top-level fields) of the snapshot that changed since version `from`, the edge's
 * version. The edge applies it only on `from` and only when the result's sha256 is `hash`; otherwise it refuses it and
 * asks for the whole snapshot again (`resync`).
 */
export const EdgeDeltaMessage = object({
  type: literal('delta'),
  from: safeInteger(1),
  version: safeInteger(2),
  hash: size(string(), 64, 64),
  builtAt: ms(),
  set: partial(EdgeSnapshot),
  /** keyed parts changed by element (applied after `set`; a part is in one or the other) */
  patch: optional(EdgePatch),
});
export type EdgeDeltaMessage = Infer<typeof EdgeDeltaMessage>;
/** The most violations an error message lists (a message with more says the first ones). */
export const EDGE_ERROR_VIOLATIONS_MAX = 20;
/** The server's refusal of a message: its first violation's field and message, and (since 2026-12-04) every violation, as a REST refusal lists them. */
export const EdgeError = object({
  type: literal('error'),
  field: safeText(200),
  message: safeText(500),
  violations: optional(size(array(object({ field: safeText(200), message: safeText(500) })), 0, EDGE_ERROR_VIOLATIONS_MAX)),
});
/** How long the server waits for the edge's answer to a command (and for the event it journaled to be stored). */
export const EDGE_COMMAND_TIMEOUT_MS = 8000;
const commandId = () => size(string(), 1, 64);
/**
 * A door command of the console (or a schedule, threat level, lockdown, logical block) on a door of this controller:
 * the edge applies it to the door's strike, journals the event (Door locked / unlocked / momentarily unlocked) and
 * answers `doorResult` with that event's sequence number and the strike's state.
 */
export const EdgeDoorCommand = object({
  type: literal('door'),
  id: commandId(),
  doorId: id(),
  command: enums(DOOR_COMMANDS),
  /** who: a person's user name as it is, or what acted (a schedule, a threat level, an override, a logical block) as
   *  a sentence with its key and values, which the edge's door event carries as a keyed value (contract sentenceValue:
   *  said by its key inside the event's sentence, never English inside a translated one; issue 48) */
  actor: union([safeText(200), object({ message: safeText(200), code: SentenceKey, values: SentenceValues })]),
  force: boolean(),
});
export type EdgeDoorCommand = Infer<typeof EdgeDoorCommand>;
/** Re-pair the OSDP reader at this bus address (an audited administrator action): forget its key, pair it again in
 *  install mode (SCBK-D, then a fresh key by KEYSET) for that address only. */
export const EdgeRepairCommand = object({ type: literal('repair'), id: commandId(), address: int32(0, 126) });
export type EdgeRepairCommand = Infer<typeof EdgeRepairCommand>;
/** The speeds an OSDP reader can be moved to (COMSET) and a scan tries (§4.1; 230400 is left out: few readers take it). */
export const OSDP_BAUD_RATES = [9600, 19200, 38400, 57600, 115200] as const;
/** Scan the OSDP bus at these addresses (those not on it yet) for readers wired but not configured (issue 46, pre-add):
 *  answered with `found`; a reader found and then added as a card reader is paired in install mode. */
export const EdgeScanCommand = object({
  type: literal('scan'),
  id: commandId(),
  addresses: size(array(int32(0, 126)), 1, 127),
  /** other speeds to try too (a broadcast osdp_ID at each, then address by address where anyone answered) */
  speeds: optional(size(array(enums(OSDP_BAUD_RATES)), 0, 5)),
  /** no address is asked after this long (ms); the answer says how many were left */
  withinMs: optional(int32(1000, 300_000)),
});
export type EdgeScanCommand = Infer<typeof EdgeScanCommand>;
/** Move the OSDP reader at `address` to bus address `to` and speed `baud` (osdp_COMSET, an audited installer's action):
 *  the bus follows it there; the line's speed changes only when no other reader is on it. */
export const EdgeComsetCommand = object({
  type: literal('comset'),
  id: commandId(),
  address: int32(0, 126),
  to: int32(0, 126),
  baud: enums(OSDP_BAUD_RATES),
});
export type EdgeComsetCommand = Infer<typeof EdgeComsetCommand>;
export const EdgeServerMessage = union([
  EdgeWelcome,
  EdgeSnapshotMessage,
  EdgeDeltaMessage,
  EdgeError,
  EdgeDoorCommand,
  EdgeRepairCommand,
  EdgeScanCommand,
  EdgeComsetCommand,
]);
export type EdgeServerMessage = Infer<typeof EdgeServerMessage>;

// ---------- edge → server ----------
export const EdgeHello = object({
  type: literal('hello'),
  edgeVersion: requiredText(40),
  /** the snapshot version it decides with now (0: none yet) */
  snapshotVersion: safeInteger(0),
  /** journaled events not yet delivered */
  pending: safeInteger(0),
});
/** A snapshot version taken (a whole snapshot or a delta): which, when the server built it (`builtAt`, as sent with it)
 *  and when the edge applied it (`at`, the edge's clock). The server keeps them: the Controllers list shows the
 *  version the edge holds and its real age (edges before these fields: the server's own times). */
export const EdgeApplied = object({ type: literal('applied'), version: safeInteger(1), builtAt: optional(ms()), at: optional(ms()) });
export const EdgeStatus = object({ type: literal('status'), snapshotVersion: safeInteger(0), pending: safeInteger(0), lastSeq: safeInteger(0) });
/** The edge could not apply a delta (not on the version it holds, or the result's hash differs): send the whole snapshot. */
export const EdgeResync = object({ type: literal('resync'), held: safeInteger(0) });
/** A reader a scan found (PDID, PDCAP): not on the bus yet. */
export const EdgeFoundReader = object({
  address: int32(0, 126),
  identity: object({ vendor: safeText(6), model: int32(0), version: int32(0), serial: safeInteger(0, 0xffffffff), firmware: safeText(40) }),
  capabilities: size(array(object({ function: int32(0), name: safeText(80), compliance: int32(0), count: int32(0) })), 0, 64),
  /** the speed it answered at (absent from edges before the scan at several speeds) */
  baud: optional(int32(0)),
  /** the line's own speed: a reader found at another one cannot be polled until it is set to it */
  lineBaud: optional(int32(0)),
});
export type EdgeFoundReader = Infer<typeof EdgeFoundReader>;
/** A sentence's values as an edge sends them over its link (its answers): SentenceValues bounded as every other field
 *  of the link is (text without control characters or lone surrogates, whole numbers, 32 values at most), since the
 *  link's frames are not read by the HTTP body parser that refuses such text everywhere (hostileUplink.test.ts). */
export const EdgeSentenceValues = refine(
  record(safeText(80), union([safeText(500), safeInteger()])),
  'values',
  (v) => Object.keys(v).length <= 32 || 'must hold at most 32 values',
);

/** The edge's answer to a command: done (ok) or refused (`message` says why); a door's with the journal number of the
 *  event it recorded (0: none) and the strike's state after it. */
export const EdgeCommandResult = object({
  type: literal('result'),
  id: commandId(),
  ok: boolean(),
  /** what it did or why not, in English; with its sentence's key and values (issue 48: the console says it in the
   *  operator's language) */
  message: safeText(500),
  code: optional(SentenceKey),
  values: optional(EdgeSentenceValues),
  seq: safeInteger(0),
  state: optional(enums(['locked', 'unlocked', 'unlocked-briefly'])),
  /** a scan's answer: the readers that said who they are */
  found: optional(size(array(EdgeFoundReader), 0, 127)),
});
export type EdgeCommandResult = Infer<typeof EdgeCommandResult>;
/** An edge's answer to command `id` said as a sentence (its English at most 500 characters, its key and values). */
export const edgeAnswer = (id: string, ok: boolean, said: Sentence, more: Partial<Omit<EdgeCommandResult, 'type' | 'id' | 'ok'>> = {}): EdgeCommandResult => ({
  type: 'result',
  id,
  ok,
  message: said.message.slice(0, 500),
  code: said.code,
  values: said.values,
  seq: 0,
  ...more,
});

/** The secure channel of an OSDP reader as the Hardware screens show it. */
export const OSDP_CHANNEL_STATES = ['secure', 'paired', 'pairing', 'clear', 'refused'] as const;
/** An OSDP reader on the controller's bus, as the edge last saw it (identity from PDID, capabilities from PDCAP). */
export const EdgeReaderStatus = object({
  address: int32(0, 126),
  state: enums(['connecting', 'online', 'offline', 'refused']),
  /** secure: the channel is open with the reader's own key; paired: it has a key of its own (kept sealed); pairing:
   *  install mode, waiting to give it one; clear: no secure channel; refused: the reader refused the channel */
  channel: enums(OSDP_CHANNEL_STATES),
  identity: nullable(object({ vendor: safeText(6), model: int32(0), version: int32(0), serial: safeInteger(0, 0xffffffff), firmware: safeText(40) })),
  capabilities: size(array(object({ function: int32(0), name: safeText(80), compliance: int32(0), count: int32(0) })), 0, 64),
  tamper: boolean(),
  power: boolean(),
  counters: refine(record(safeText(40), safeInteger(0)), 'counters', (v) => Object.keys(v).length <= 32 || 'must hold at most 32 counters'),
  reason: nullable(safeText(300)),
  /** the speed of the line it is on (baud); absent from edges before COMSET */
  baud: optional(int32(0)),
});
export type EdgeReaderStatus = Infer<typeof EdgeReaderStatus>;
/** The OSDP readers' status, sent on connect and whenever one changes (at most once a second). */
export const EdgeReaders = object({ type: literal('readers'), readers: size(array(EdgeReaderStatus), 0, 127) });
/** Each message an edge sends up its connection, by its `type` (the server checks each with its own struct). */
export const EDGE_CLIENT_MESSAGES = {
  hello: EdgeHello,
  applied: EdgeApplied,
  status: EdgeStatus,
  resync: EdgeResync,
  result: EdgeCommandResult,
  readers: EdgeReaders,
} as const;
export const EdgeClientMessage = union([EdgeHello, EdgeApplied, EdgeStatus, EdgeResync, EdgeCommandResult, EdgeReaders]);
export type EdgeClientMessage = Infer<typeof EdgeClientMessage>;

/** The checks of the engine's chain (contract/decision.ts DecisionStep). */
export const DECISION_CHECKS = [
  'card-format',
  'credential',
  'qr',
  'identity',
  'door-mode',
  'pin',
  'access-group',
  'schedule',
  'anti-passback',
  'interlock',
] as const satisfies readonly DecisionStep['check'][];
/** One check of the chain as the edge's engine ran it, with its detail's sentence key and values (issue 48: the Why? of
 *  an edge's decision reads in the operator's language, as the server's own does). */
export const EdgeDecisionStep = object({
  check: enums(DECISION_CHECKS),
  ok: boolean(),
  detail: safeText(300),
  code: optional(SentenceKey),
  values: optional(SentenceValues),
});

/** The edge part of a device event (contract/ingest.ts DeviceEvent.edge): its place in the controller's journal. */
export const EdgeEventPart = object({
  /** 1, 2, 3 … per controller, in the order journaled: the server stores each once, in this order */
  seq: safeInteger(1),
  /** when it happened at the door (ms since the epoch) */
  occurredAt: ms(),
  /** decided while the link to the server was down */
  offline: boolean(),
  snapshotVersion: safeInteger(0),
  /** an alarm raised offline whose point returned to normal while still offline: when it did (the server records its
   *  alarm as processed, never raising it as new) */
  clearedAt: optional(ms()),
  /** sent at once beside the journal's backlog, the event journaled while online (the live lane): the server stores it
   *  ahead of the controller's last number, and its copy in the backlog is a duplicate then */
  live: optional(boolean()),
  /** a decided swipe: who, granted or denied and why, and what was presented; with the engine's chain of checks as the
   *  edge ran it (`steps`) over its snapshot (`snapshotVersion`, built at `snapshotBuiltAt`): the server's "Why?" of an
   *  edge's decision shows that chain, not today's rules only */
  decided: optional(
    object({
      identityId: nullable(id()),
      decision: enums(['granted', 'denied']),
      reason: enums(DECISION_REASONS),
      card: safeText(64),
      doorId: id(),
      side: enums(['entry', 'exit']),
      steps: optional(size(array(EdgeDecisionStep), 0, 16)),
      snapshotBuiltAt: optional(ms()),
    }),
  ),
});
export type EdgeEventPart = Infer<typeof EdgeEventPart>;
