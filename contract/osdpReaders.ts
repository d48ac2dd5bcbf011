// The OSDP readers of a controller as the Hardware screens show them (issue 46): what its Gatehouse Edge last reported
// of each reader on its bus (contract/edge.ts EdgeReaderStatus: address, state, secure channel, identity from PDID,
// capabilities from PDCAP, tamper, power, counters; never a key), each with the card reader of this controller at its bus
// address (the record the Re-pair action acts on), as server/edge/readerRoutes.ts answers it. A change is pushed, not
// polled: `/osdp-readers` (contract/realtime.ts OsdpReadersNotice) tells open pages to read again.
import { array, boolean, enums, integer, nullable, object, optional, size, string, type, type Infer } from './structs';
import { EdgeFoundReader, EdgeReaderStatus, OSDP_BAUD_RATES } from './edge';
import { MessageKeyed } from './messages';

/** One OSDP reader, with the controller's card reader at its bus address (null: none has that address). */
export const OsdpReaderRow = type({ ...EdgeReaderStatus.schema, cardReader: nullable(object({ id: integer(), name: string() })) });
export type OsdpReaderRow = Infer<typeof OsdpReaderRow>;

/**
 * `GET …/controllers/:id/osdp-readers` (every reader the edge reported) and `GET …/card-readers/:id/osdp` (the one at
 * that card reader's bus address, or none). `edge`: the controller runs Gatehouse Edge (has a controller key);
 * `online`: its link is up now; `reportedAt`: when it last reported its readers (null: never).
 */
export const OsdpReadersAnswer = type({
  controllerId: integer(),
  edge: boolean(),
  online: boolean(),
  reportedAt: nullable(string()),
  readers: array(OsdpReaderRow),
});
export type OsdpReadersAnswer = Infer<typeof OsdpReadersAnswer>;

/** `POST …/card-readers/:id/repair`: what the edge said it did (refusals are 4xx with a message). */
export const OsdpRepairAnswer = type({ ok: boolean(), message: string(), ...MessageKeyed });
export type OsdpRepairAnswer = Infer<typeof OsdpRepairAnswer>;

/**
 * `POST …/card-readers/:id/comset` (osdp_COMSET): move the card reader's OSDP reader to another bus address and/or
 * speed (OSDP_BAUD_RATES); either may be left out (kept). The card reader's record follows the new address.
 */
/** A bus address 0–126 (0x7F is the broadcast) and a standard OSDP speed; either left out keeps the reader's. */
export const OsdpComsetRequest = type({ address: optional(size(integer(), 0, 126)), baud: optional(enums([...OSDP_BAUD_RATES])) });
export type OsdpComsetRequest = { address?: number; baud?: number };
/** What the edge did: the reader's address and speed now. */
export const OsdpComsetAnswer = type({ ok: boolean(), message: string(), ...MessageKeyed, address: integer(), baud: integer() });
export type OsdpComsetAnswer = Infer<typeof OsdpComsetAnswer>;

/** The bus addresses a pre-add scan asks first (each silent one costs the line a reply timeout, 200 ms): 0–15. */
export const OSDP_SCAN_ADDRESSES = Array.from({ length: 16 }, (_, i) => i);
/** Every bus address (0x00–0x7E), when the installer asks for the whole range (`?addresses=all`: about 26 s). */
export const OSDP_ALL_ADDRESSES = Array.from({ length: 127 }, (_, i) => i);
/** How long a scan of the whole range (and at every speed) may take on one edge before it answers with what it found. */
export const OSDP_WIDE_SCAN_MS = 90_000;

/** A reader wired to an edge controller's OSDP bus and not configured yet: it answered a scan (PDID, PDCAP). */
export const OsdpFoundReader = type({ ...EdgeFoundReader.schema, controllerId: integer(), controllerName: string() });
export type OsdpFoundReader = Infer<typeof OsdpFoundReader>;

/**
 * `GET …/interfaces/discover-osdp` (Hardware → Interface → pre-add): every connected edge controller of the client
 * scans its bus (OSDP_SCAN_ADDRESSES, those without a card reader); `items` is what answered, `controllers` what each
 * controller said (ok false: it did not scan, `message` why). An edge offline is not asked.
 */
export const OsdpFoundAnswer = type({
  items: array(OsdpFoundReader),
  controllers: array(type({ controllerId: integer(), controllerName: string(), ok: boolean(), message: string(), ...MessageKeyed })),
});
export type OsdpFoundAnswer = Infer<typeof OsdpFoundAnswer>;

/** The counters the Hardware screens show first, in this order (the rest of EdgeReaderStatus.counters after them). */
export const OSDP_MAIN_COUNTERS = ['crc', 'naks', 'timeouts', 'secureChannel'] as const;

/** Hardware → Interface → pre-add: how far a scan for readers not configured yet goes. */
export type OsdpScanScope = 'quick' | 'all' | 'speeds';
