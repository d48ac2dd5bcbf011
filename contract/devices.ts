// Local devices (§1, §3, §4, §5, §7, §8): the desktop companion's message protocol and the card-reader
// connector's `{type, version, data}` messages, with the size limits and the user-visible messages.
// Both sides (console machines, simulators) parse with the same functions, so a message is valid or not
// in exactly one place.
import { array, boolean, enums, integer, literal, nullable, object, optional, pattern, size, string, union, type Infer, type Struct } from './structs';
import { CONNECTOR_VERSION } from './constants';
import { CardReaderMessage, FilePayload, validate, type Violation } from './schemas';

// ---------- limits ----------
/** A companion message may carry a photo (base64): 8 MB of text is plenty for a badge photo. */
export const COMPANION_MAX_MESSAGE_CHARS = 8 * 1024 * 1024;
/** A connector message may carry the card's photo: 2 MB of text. */
export const CONNECTOR_MAX_MESSAGE_CHARS = 2 * 1024 * 1024;

// ---------- user-visible messages (§8) ----------
export const DEVICE_MESSAGES = {
  /** §4/§8: shown after all three connector ports failed. */
  connectorMissing: 'Card reader service not found. Install and start the Gatehouse Card Connector on this computer, then try again.',
  /** §8: shown when an open connector connection closes. */
  connectFailed: 'Connect failed',
  /** §5: the connector announced a version other than v1.0.0. */
  connectorOutdated: `The reader connector is outdated and must be upgraded to ${CONNECTOR_VERSION}.`,
  companionDisconnected: 'The desktop companion disconnected before it answered.',
} as const;

// ---------- companion: console → companion ----------
const RequestId = pattern(size(string(), 1, 64), /^[A-Za-z0-9._:-]+$/);
const Text = (max: number) => size(string(), 1, max);
const IsoDateTime = pattern(string(), /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/);

export const PhotoPurpose = enums(['identity', 'visitor']);
export type PhotoPurpose = Infer<typeof PhotoPurpose>;
export const BadgeVisitor = object({
  name: Text(200),
  company: optional(nullable(size(string(), 0, 200))),
  host: optional(nullable(size(string(), 0, 200))),
  validUntil: optional(nullable(IsoDateTime)),
  /** Company ID [0.7.4.0]: the company the badge is printed for, and its site code. */
  issuer: optional(nullable(size(string(), 0, 200))),
  siteCode: optional(nullable(size(integer(), 0, 65535))),
});
export type BadgeVisitor = Infer<typeof BadgeVisitor>;

export const PhotoCaptureCommand = object({ type: literal('photo.capture'), requestId: RequestId, purpose: PhotoPurpose });
export const BadgePrintCommand = object({
  type: literal('badge.print'),
  requestId: RequestId,
  visitor: BadgeVisitor,
  /** The text encoded in the badge's QR code (a visitor credential), if any. */
  qr: optional(nullable(size(string(), 1, 2000))),
});
export const AlarmNotifyCommand = object({ type: literal('notify.alarm'), title: Text(200), message: size(string(), 0, 2000) });
export const CompanionCommand = union([PhotoCaptureCommand, BadgePrintCommand, AlarmNotifyCommand]);
export type CompanionCommand = Infer<typeof CompanionCommand>;
export type PhotoCaptureCommand = Infer<typeof PhotoCaptureCommand>;
export type BadgePrintCommand = Infer<typeof BadgePrintCommand>;
export type AlarmNotifyCommand = Infer<typeof AlarmNotifyCommand>;

// ---------- companion: companion → console ----------
export const CompanionCapability = enums(['photo.capture', 'badge.print', 'notify.alarm']);
export type CompanionCapability = Infer<typeof CompanionCapability>;
export const CompanionHello = object({
  type: literal('hello'),
  version: Text(32),
  // unknown capabilities of a newer companion are kept as text, not rejected
  capabilities: size(array(Text(64)), 0, 32),
});
export const PhotoCaptured = object({ type: literal('photo.captured'), requestId: RequestId, file: FilePayload });
export const BadgePrinted = object({ type: literal('badge.printed'), requestId: RequestId });
export const CompanionError = object({ type: literal('error'), requestId: optional(RequestId), message: Text(500) });
export const CompanionReply = union([CompanionHello, PhotoCaptured, BadgePrinted, CompanionError]);
export type CompanionReply = Infer<typeof CompanionReply>;
export type CompanionHello = Infer<typeof CompanionHello>;

/** What GET {host}/api/check-port answers (§7); any 2xx counts as found, the body is informative. */
export const CompanionCheckPort = object({ name: string(), version: string(), port: optional(integer()) });
export type CompanionCheckPort = Infer<typeof CompanionCheckPort>;

export type Parsed<T> = { ok: true; message: T } | { ok: false; error: string };

function describe(violations: Violation[]): string {
  const v = violations[0];
  return v ? `${v.field} ${v.message}` : 'is invalid';
}

/** A raw text frame → JSON → schema; oversize and non-JSON frames are rejected with a reason. */
function parseFrame<T>(raw: unknown, struct: Struct<T, any>, max: number, what: string): Parsed<T> {
  if (typeof raw !== 'string') return { ok: false, error: `${what}: not a text message` };
  if (raw.length > max) return { ok: false, error: `${what}: message too large (${raw.length} > ${max} characters)` };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: `${what}: not JSON` };
  }
  const r = validate(json, struct);
  if (!r.ok) {
    const type = json && typeof json === 'object' && 'type' in json ? String((json as { type: unknown }).type).slice(0, 64) : '?';
    return { ok: false, error: `${what}: invalid '${type}' message (${describe(r.violations)})` };
  }
  return { ok: true, message: r.value };
}

export const parseCompanionReply = (raw: unknown): Parsed<CompanionReply> => parseFrame(raw, CompanionReply, COMPANION_MAX_MESSAGE_CHARS, 'Companion');
export const parseCompanionCommand = (raw: unknown): Parsed<CompanionCommand> => parseFrame(raw, CompanionCommand, COMPANION_MAX_MESSAGE_CHARS, 'Console');

// ---------- card connector ----------
/** §4: connection messages. */
export const CONNECTOR_CONNECTION_TYPES = ['connecting', 'connected', 'disconnected', 'version_valid', 'invalid_version'] as const;
/** §4: card events. */
export const CONNECTOR_CARD_TYPES = ['reader_connected', 'reader_disconnected', 'card_inserted', 'card_removed', 'reading_data', 'data_received'] as const;
/** Console → connector: ask for a read; refuse a connector of another version (§5). */
export const CONNECTOR_COMMAND_TYPES = ['read_card', 'invalid_version'] as const;
export type ConnectorIncomingType = (typeof CONNECTOR_CONNECTION_TYPES)[number] | (typeof CONNECTOR_CARD_TYPES)[number];
export type ConnectorCommandType = (typeof CONNECTOR_COMMAND_TYPES)[number];

const IsoDate = pattern(string(), /^\d{4}-\d{2}-\d{2}$/);
/** A MyKad-like identity card as the reader returns it. */
export const MyKad = object({
  name: Text(200),
  idNumber: pattern(size(string(), 1, 32), /^[A-Z0-9-]+$/),
  dateOfBirth: IsoDate,
  address: size(string(), 0, 500),
  gender: optional(nullable(enums(['M', 'F']))),
  nationality: optional(nullable(size(string(), 0, 64))),
  photo: optional(nullable(FilePayload)),
});
export type MyKad = Infer<typeof MyKad>;

/** `data` of each incoming type; types not listed carry anything (ignored). */
const CONNECTOR_DATA: Partial<Record<ConnectorIncomingType, Struct<any, any>>> = { data_received: MyKad };

export type ConnectorMessage =
  { type: Exclude<ConnectorIncomingType, 'data_received'>; version: string; data?: unknown } | { type: 'data_received'; version: string; data: MyKad };

export type ParsedConnector =
  | { ok: true; message: ConnectorMessage }
  | { ok: false; error: string; /** set when the frame was a well-formed message of another version (§5) */ version?: string };

/**
 * A raw connector frame. The version is checked before the data (§5: anything but v1.0.0 is refused,
 * whatever it carries), so a wrong version is reported as such, with the version it announced.
 */
export function parseConnectorMessage(raw: unknown): ParsedConnector {
  const frame = parseFrame(raw, CardReaderMessage, CONNECTOR_MAX_MESSAGE_CHARS, 'Card connector');
  if (!frame.ok) return frame;
  const { type, version, data } = frame.message;
  if (version !== CONNECTOR_VERSION) return { ok: false, error: DEVICE_MESSAGES.connectorOutdated, version: version.slice(0, 32) };
  if (!(CONNECTOR_CONNECTION_TYPES as readonly string[]).includes(type) && !(CONNECTOR_CARD_TYPES as readonly string[]).includes(type)) {
    return { ok: false, error: `Card connector: unknown message '${type.slice(0, 64)}'` };
  }
  const dataStruct = CONNECTOR_DATA[type as ConnectorIncomingType];
  if (dataStruct) {
    const r = validate(data, dataStruct);
    if (!r.ok) return { ok: false, error: `Card connector: invalid card data (${describe(r.violations)})` };
    return { ok: true, message: { type: 'data_received', version, data: r.value } };
  }
  return { ok: true, message: { type, version, data } as ConnectorMessage };
}

/** Console → connector messages, parsed by the simulator. */
export const ConnectorCommand = object({
  type: enums(CONNECTOR_COMMAND_TYPES),
  version: string(),
  data: optional(union([literal(null), object({ received: optional(string()) })])),
});
export type ConnectorCommand = Infer<typeof ConnectorCommand>;
export const parseConnectorCommand = (raw: unknown): Parsed<ConnectorCommand> => parseFrame(raw, ConnectorCommand, CONNECTOR_MAX_MESSAGE_CHARS, 'Console');

/** The console's reply to a connector of another version (§5). */
export function invalidVersionMessage(received: string): ConnectorCommand {
  return { type: 'invalid_version', version: CONNECTOR_VERSION, data: { received } };
}
export const readCardMessage = (): ConnectorCommand => ({ type: 'read_card', version: CONNECTOR_VERSION, data: null });

// ---------- card-reader service over REST (/MyKad/*, no-token paths of §7) ----------
export const MyKadReader = object({ name: string(), connected: boolean(), cardPresent: boolean() });
export type MyKadReader = Infer<typeof MyKadReader>;
export const MyKadReaderList = object({ readers: array(MyKadReader) });
export type MyKadReaderList = Infer<typeof MyKadReaderList>;
