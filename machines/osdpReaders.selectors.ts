// What the Hardware screens show of a controller's OSDP readers (issue 46), from the status its Gatehouse Edge last
// reported (contract/osdpReaders.ts, read by the `osdpReadersReading` actor): the secure channel in the words an
// installer uses (paired / secure / refused), the reader's link state, its identity and capabilities as lines, the
// error counters in a fixed order, why the list is empty, and whether Re-pair is offered. Pure: the view translates
// the English it is given (tx) and the server checks the privilege again.
import { hasPrivilege, OSDP_MAIN_COUNTERS, PRIV, type OsdpReaderRow, type OsdpReadersAnswer } from '../contract';

export type Intent = 'none' | 'primary' | 'success' | 'warning' | 'danger';

/** The secure channel as the screen says it (contract/edge.ts OSDP_CHANNEL_STATES). */
export const CHANNEL_SHOWN: Record<OsdpReaderRow['channel'], { label: string; intent: Intent; help: string }> = {
  secure: { label: 'Secure', intent: 'success', help: 'The secure channel is open with the reader’s own key.' },
  paired: { label: 'Paired', intent: 'primary', help: 'The reader has a key of its own; the secure channel is not open now.' },
  pairing: { label: 'Pairing', intent: 'warning', help: 'Install mode: pairing with the default key, then giving the reader its own.' },
  clear: { label: 'No secure channel', intent: 'warning', help: 'The reader is spoken to in plain text.' },
  refused: { label: 'Refused', intent: 'danger', help: 'The reader refused the secure channel (wrong key, or it was reset): re-pair it.' },
};

/** The reader's link as the screen says it. */
export const STATE_SHOWN: Record<OsdpReaderRow['state'], { label: string; intent: Intent }> = {
  online: { label: 'Online', intent: 'success' },
  connecting: { label: 'Connecting', intent: 'warning' },
  offline: { label: 'Offline', intent: 'danger' },
  refused: { label: 'Refused', intent: 'danger' },
};

/** The counters of edge/osdp/bus.ts, in the order shown (the four of the issue first). */
export const COUNTER_LABELS: Record<string, string> = {
  crc: 'CRC errors',
  naks: 'NAKs',
  timeouts: 'Timeouts',
  secureChannel: 'Secure channel failures',
  sequence: 'Wrong sequence numbers',
  malformed: 'Malformed replies',
  busy: 'Busy replies',
  retries: 'Retries',
  commands: 'Commands',
  replies: 'Replies',
};

/** PDCAP function codes (OSDP v2.2 Table 16). */
export const CAPABILITY_LABELS: Record<number, string> = {
  1: 'Contact status monitoring',
  2: 'Output control',
  3: 'Card data format',
  4: 'LED control',
  5: 'Audible output',
  6: 'Text output',
  7: 'Time keeping',
  8: 'Check character support',
  9: 'Communication security',
  10: 'Receive buffer size',
  11: 'Largest combined message size',
  12: 'Smart card support',
  13: 'Readers',
  14: 'Biometrics',
  15: 'Secure PIN entry',
  16: 'OSDP version',
};

export interface CounterShown {
  key: string;
  label: string;
  value: number;
  /** an error counter above zero: worth a look */
  alert: boolean;
}

const ERRORS = new Set(['crc', 'naks', 'timeouts', 'secureChannel', 'sequence', 'malformed']);

/** Every counter of the reader: the four first (0 when the edge sent none), then the rest in a fixed order, then any unknown ones by name. */
export function countersOf(r: Pick<OsdpReaderRow, 'counters'>): CounterShown[] {
  const keys = [...OSDP_MAIN_COUNTERS, ...Object.keys(COUNTER_LABELS).filter((k) => !(OSDP_MAIN_COUNTERS as readonly string[]).includes(k))];
  const rest = Object.keys(r.counters)
    .filter((k) => !keys.includes(k))
    .sort();
  return [...keys.filter((k) => k in r.counters || (OSDP_MAIN_COUNTERS as readonly string[]).includes(k)), ...rest].map((key) => {
    const value = r.counters[key] ?? 0;
    return { key, label: COUNTER_LABELS[key] ?? key, value, alert: ERRORS.has(key) && value > 0 };
  });
}

/** The errors worth a look, summed (the reader's headline). */
export const errorCount = (r: Pick<OsdpReaderRow, 'counters'>): number => countersOf(r).reduce((n, c) => n + (c.alert ? c.value : 0), 0);

export interface CapabilityShown {
  function: number;
  label: string;
  compliance: number;
  count: number;
  /** the buffer and message sizes (functions 10 and 11) are a number of bytes, compliance the low byte, count the high */
  bytes: number | null;
}
const SIZES = new Set([10, 11]);
/** PDCAP as lines: the standard's name for each function code (the edge's own name for a code it does not know). */
export const capabilitiesOf = (r: Pick<OsdpReaderRow, 'capabilities'>): CapabilityShown[] =>
  [...r.capabilities]
    .sort((a, b) => a.function - b.function)
    .map((c) => ({
      function: c.function,
      label: CAPABILITY_LABELS[c.function] ?? c.name,
      compliance: c.compliance,
      count: c.count,
      bytes: SIZES.has(c.function) ? c.compliance + 256 * c.count : null,
    }));

/** The vendor's IEEE OUI as it is written (three bytes, dashes): 0A0B0C → 0A-0B-0C. */
export const vendorOf = (r: Pick<OsdpReaderRow, 'identity'>): string | null =>
  r.identity ? (r.identity.vendor.match(/.{1,2}/g) ?? []).join('-').toUpperCase() : null;

/** Why there is no reader to show (null: there are readers). */
export type EmptyReason = 'not-edge' | 'never-reported' | 'none-reported';
export function emptyReasonOf(a: Pick<OsdpReadersAnswer, 'edge' | 'reportedAt' | 'readers'>): EmptyReason | null {
  if (a.readers.length) return null;
  if (!a.edge && !a.reportedAt) return 'not-edge';
  return a.reportedAt ? 'none-reported' : 'never-reported';
}

/** Re-pair is offered for a reader with a card reader record, to holders of the code the server's route checks. */
export const mayRepair = (held: ReadonlySet<string>, r: Pick<OsdpReaderRow, 'cardReader'>): boolean =>
  r.cardReader !== null && hasPrivilege(held, [PRIV.cardReaders.edit]);

/** The reader needs attention: not online, refused or pairing, tamper, power failure, or error counters. */
export const needsLook = (r: OsdpReaderRow): boolean => r.state !== 'online' || r.channel === 'refused' || r.tamper || r.power || errorCount(r) > 0;
