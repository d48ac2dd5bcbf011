// The device interface (issue 13): controllers, or a hardware simulator run as its own process, send their events in
// batches to one REST endpoint. Each message is checked on its own: the bad ones are refused with a reason, the good
// ones of the same batch are kept. Messages of one batch are persisted in the order sent (the order per source).
import { array, enums, nullable, object, optional, refine, size, string, integer, min, max, type Infer } from 'superstruct';
import { EVENT_CODES } from './monitor';

/** Most messages one request may carry. */
export const INGEST_MAX_BATCH = 5000;
/** The header that carries the ingest token (until service-account keys exist). */
export const INGEST_TOKEN_HEADER = 'x-ingest-token';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// printable text only: no NUL or other control characters, no lone surrogates (they cannot be stored)
const printable = (maxLength: number) => refine(size(string(), 1, maxLength), 'printable', (v) =>
  // eslint-disable-next-line no-control-regex
  (!/[\u0000-\u001f\u007f]/.test(v) && !LONE_SURROGATE.test(v)) || 'must be printable text');

export const DeviceEvent = object({
  /** The controller that saw it: decides the tenant. */
  controllerId: min(max(integer(), 2_147_483_647), 1),
  eventCode: enums(Object.values(EVENT_CODES)),
  /** reader-12, input-3, door-7, iface-1 … */
  sourceId: printable(64),
  sourceName: optional(nullable(printable(200))),
  pointId: optional(printable(64)),
  pointName: optional(nullable(printable(200))),
  message: optional(printable(500)),
});
export type DeviceEvent = Infer<typeof DeviceEvent>;

/** The envelope; its items are checked one by one (see DeviceEvent). */
export const DeviceBatch = object({ events: size(array(), 1, INGEST_MAX_BATCH) });

export interface DeviceBatchResult {
  accepted: number;
  /** first and last stored event ids of the accepted messages */
  firstId: number | null;
  lastId: number | null;
  rejected: { index: number; violations: { field: string; message: string }[] }[];
}
