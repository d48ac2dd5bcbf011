// The controller side of OSDP v2.2 with Secure Channel (issue 46). docs/OSDP.md describes this API and every
// protocol choice behind it.
export { Bus } from './bus.js';
export { discover } from './discover.js';
export type { Found } from './discover.js';
export type { BusEvents, BusOptions, Mode, ReaderConfig, ReaderCounters, ReaderState, ReaderStatus } from './bus.js';
export { openSerial, closeSerial, BAUD_RATES, wireMs } from './transport.js';
export type { ByteDuplex } from './transport.js';
export { parseKey, SCBK_D } from './secure.js';
export { Color, Command, Nak, nakReason, Reply } from './constants.js';
export type { CardRead, CapabilityEntry, Identity, LedSpec, BuzzerSpec, TextSpec, OutputSpec } from './messages.js';
export { decodeCard } from './card.js';
export { Reader } from './pd/reader.js';
export type { Fault, ReaderOptions } from './pd/reader.js';
// pseudo-terminal lines (socat) for tests and the demo: readers of ours on one end, the bus on the other
export { ptyLinks, ptyPair } from './testkit.js';
export type { PtyPair } from './testkit.js';
