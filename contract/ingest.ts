// The device interface (issue 13): controllers, or a hardware simulator run as its own process, send their events in
// batches to one REST endpoint. Each message is checked on its own: the bad ones are refused with a reason, the good
// ones of the same batch are kept. Messages of one batch are persisted in the order sent (the order per source).
import { array, enums, nullable, object, optional, size, type Infer } from './structs';
import { idInt, requiredText } from './primitives';
import { EVENT_CODES } from './monitor';
import { EdgeEventPart } from './edge';
import { MessageKeyed } from './messages';
import type { Violation } from './violation';

/** Most messages one request may carry. */
export const INGEST_MAX_BATCH = 5000;

// device text: printable (no NUL or control characters, no lone surrogates) and bounded, as every input (primitives)
const printable = requiredText;

export const DeviceEvent = object({
  /** The controller that saw it: decides the tenant. */
  controllerId: idInt(),
  eventCode: enums(Object.values(EVENT_CODES)),
  /** reader-12, input-3, door-7, iface-1 … */
  sourceId: printable(64),
  sourceName: optional(nullable(printable(200))),
  pointId: optional(printable(64)),
  pointName: optional(nullable(printable(200))),
  message: optional(printable(500)),
  /** Issue 48: the message as a sentence (contract/messages.ts fill): its key and values, which the console says in the
   *  operator's language; the English `message` is kept as sent */
  ...MessageKeyed,
  /** Gatehouse Edge (issue 47, contract/edge.ts): its journal's sequence number, when it happened, offline or not */
  edge: optional(EdgeEventPart),
});
export type DeviceEvent = Infer<typeof DeviceEvent>;

/** The envelope; its items are checked one by one (see DeviceEvent). */
export const DeviceBatch = object({ events: size(array(), 1, INGEST_MAX_BATCH) });

export interface DeviceBatchResult {
  accepted: number;
  /** first and last stored event ids of the accepted messages */
  firstId: number | null;
  lastId: number | null;
  /** each refused message's violations: the field, the English, and the sentence's key and values (issue 48) */
  rejected: { index: number; violations: Violation[] }[];
  /** Gatehouse Edge: messages of the batch already stored before (a resend after reconnecting), skipped */
  duplicates?: number;
  /** Gatehouse Edge: the last sequence number of the controller's events the server has stored */
  edgeLastSeq?: number;
}
