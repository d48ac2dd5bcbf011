// The data of each command and reply (§6, §7). Decoders take hostile bytes and return undefined when the length or
// content is not what the standard allows; the caller counts and drops (CP) or NAKs (PD).
import { Capability, Color } from './constants.js';

// ---------- replies the CP reads ----------

export interface Identity {
  /** IEEE OUI of the vendor, 6 hex digits */
  vendor: string;
  model: number;
  version: number;
  serial: number;
  firmware: string;
}

export function decodePdid(d: Uint8Array): Identity | undefined {
  if (d.length !== 12) return undefined;
  const b = Buffer.from(d);
  return {
    vendor: b.subarray(0, 3).toString('hex'),
    model: b[3],
    version: b[4],
    serial: b.readUInt32LE(5),
    firmware: `${b[9]}.${b[10]}.${b[11]}`,
  };
}
export function encodePdid(id: Identity): Buffer {
  const b = Buffer.alloc(12);
  Buffer.from(id.vendor.padStart(6, '0').slice(-6), 'hex').copy(b, 0);
  b[3] = id.model;
  b[4] = id.version;
  b.writeUInt32LE(id.serial >>> 0, 5);
  id.firmware
    .split('.')
    .slice(0, 3)
    .forEach((p, i) => (b[9 + i] = Number(p) & 0xff));
  return b;
}

export interface CapabilityEntry {
  function: number;
  name: string;
  compliance: number;
  count: number;
}
export function decodePdcap(d: Uint8Array): CapabilityEntry[] | undefined {
  if (d.length === 0 || d.length % 3 !== 0) return undefined;
  const out: CapabilityEntry[] = [];
  for (let i = 0; i < d.length; i += 3)
    out.push({ function: d[i], name: (Capability as Record<number, string>)[d[i]] ?? `function${d[i]}`, compliance: d[i + 1], count: d[i + 2] });
  return out;
}
export const encodePdcap = (caps: readonly { function: number; compliance: number; count: number }[]) =>
  Buffer.from(caps.flatMap((c) => [c.function, c.compliance, c.count]));

export interface LocalStatus {
  tamper: boolean;
  power: boolean;
}
/** osdp_LSTATR: tamper (0 normal, 1 tamper), power (0 normal, 1 failure). */
export const decodeLstatr = (d: Uint8Array): LocalStatus | undefined =>
  d.length === 2 && d[0] <= 1 && d[1] <= 1 ? { tamper: d[0] === 1, power: d[1] === 1 } : undefined;

/** The largest card read taken; a longer (or empty) RAW is hostile and dropped. */
export const MAX_CARD_BITS = 1024;

export interface CardRead {
  reader: number;
  /** 0: raw bit array, 1: Wiegand (parity, data, parity) */
  format: number;
  bitCount: number;
  /** '0'/'1' characters, first received first: what contract/cardFormat decodes */
  bits: string;
  /** the bytes as sent, the first bit in the high bit of the first byte */
  hex: string;
}
export function decodeRaw(d: Uint8Array): CardRead | undefined {
  if (d.length < 4) return undefined;
  const bitCount = d[2] | (d[3] << 8);
  if (bitCount === 0 || bitCount > MAX_CARD_BITS || d[1] > 1) return undefined;
  const bytes = Buffer.from(d.subarray(4));
  if (bytes.length !== Math.ceil(bitCount / 8)) return undefined;
  let bits = '';
  for (let i = 0; i < bitCount; i++) bits += (bytes[i >> 3] >> (7 - (i & 7))) & 1 ? '1' : '0';
  return { reader: d[0], format: d[1], bitCount, bits, hex: bytes.toString('hex') };
}
export function encodeRaw(bits: string, reader = 0, format = 1): Buffer {
  const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) if (bits[i] === '1') bytes[i >> 3] |= 0x80 >> (i & 7);
  const head = Buffer.from([reader, format, bits.length & 0xff, bits.length >> 8]);
  return Buffer.concat([head, bytes]);
}

export interface KeypadEntry {
  reader: number;
  /** '0'–'9', '*' and '#' */
  keys: string;
}
/** osdp_KEYPAD: digits in ASCII, 0x7F for '*', 0x0D for '#'; any other byte is refused. */
export function decodeKeypad(d: Uint8Array): KeypadEntry | undefined {
  if (d.length < 2 || d[1] !== d.length - 2 || d[1] === 0) return undefined;
  let keys = '';
  for (const c of d.subarray(2)) {
    if (c >= 0x30 && c <= 0x39) keys += String.fromCharCode(c);
    else if (c === 0x7f) keys += '*';
    else if (c === 0x0d) keys += '#';
    else return undefined;
  }
  return { reader: d[0], keys };
}
export function encodeKeypad(keys: string, reader = 0): Buffer {
  const codes = [...keys].map((k) => (k === '*' ? 0x7f : k === '#' ? 0x0d : k.charCodeAt(0)));
  return Buffer.from([reader, codes.length, ...codes]);
}

export interface Com {
  address: number;
  baud: number;
}
export const decodeCom = (d: Uint8Array): Com | undefined => (d.length === 5 ? { address: d[0], baud: Buffer.from(d).readUInt32LE(1) } : undefined);
export const encodeCom = (c: Com) => {
  const b = Buffer.alloc(5);
  b[0] = c.address;
  b.writeUInt32LE(c.baud, 1);
  return b;
};

// ---------- commands the CP sends (the PD's decoders beside them) ----------

export type ColorName = keyof typeof Color;
export interface LedSpec {
  reader?: number;
  led?: number;
  /** a temporary state for `timer` × 100 ms, then back to the permanent one */
  temporary?: { on: ColorName; off?: ColorName; onTime: number; offTime?: number; timer: number };
  /** the steady state */
  permanent?: { on: ColorName; off?: ColorName; onTime?: number; offTime?: number };
}
export function encodeLed(s: LedSpec): Buffer {
  const b = Buffer.alloc(14);
  b[0] = s.reader ?? 0;
  b[1] = s.led ?? 0;
  if (s.temporary) {
    const t = s.temporary;
    b[2] = 2;
    b[3] = t.onTime;
    b[4] = t.offTime ?? 0;
    b[5] = Color[t.on];
    b[6] = Color[t.off ?? 'BLACK'];
    b.writeUInt16LE(t.timer, 7);
  }
  if (s.permanent) {
    const p = s.permanent;
    b[9] = 1;
    b[10] = p.onTime ?? 1;
    b[11] = p.offTime ?? 0;
    b[12] = Color[p.on];
    b[13] = Color[p.off ?? 'BLACK'];
  }
  return b;
}
export interface LedRecord {
  reader: number;
  led: number;
  temporary?: { onColor: number; offColor: number; onTime: number; offTime: number; timer: number };
  permanent?: { onColor: number; offColor: number; onTime: number; offTime: number };
}
export function decodeLed(d: Uint8Array): LedRecord[] | undefined {
  if (d.length === 0 || d.length % 14 !== 0) return undefined;
  const out: LedRecord[] = [];
  for (let i = 0; i < d.length; i += 14) {
    const r = Buffer.from(d.subarray(i, i + 14));
    if (r[2] > 2 || r[9] > 1 || r[5] > 7 || r[6] > 7 || r[12] > 7 || r[13] > 7) return undefined;
    out.push({
      reader: r[0],
      led: r[1],
      temporary: r[2] === 2 ? { onTime: r[3], offTime: r[4], onColor: r[5], offColor: r[6], timer: r.readUInt16LE(7) } : undefined,
      permanent: r[9] === 1 ? { onTime: r[10], offTime: r[11], onColor: r[12], offColor: r[13] } : undefined,
    });
  }
  return out;
}

export interface BuzzerSpec {
  reader?: number;
  /** 0/1 off, 2 the default tone */
  tone?: number;
  /** × 100 ms */
  onTime: number;
  offTime: number;
  count: number;
}
export const encodeBuzzer = (s: BuzzerSpec) => Buffer.from([s.reader ?? 0, s.tone ?? 2, s.onTime, s.offTime, s.count]);
export const decodeBuzzer = (d: Uint8Array): Required<BuzzerSpec> | undefined =>
  d.length === 5 && d[1] <= 2 ? { reader: d[0], tone: d[1], onTime: d[2], offTime: d[3], count: d[4] } : undefined;

export interface TextSpec {
  reader?: number;
  /** 1 permanent, 2 permanent wrapping, 3 temporary, 4 temporary wrapping */
  command?: number;
  /** seconds, for a temporary text */
  seconds?: number;
  row?: number;
  column?: number;
  text: string;
}
/** Printable ASCII only: anything else becomes '?', and a line is at most 32 characters. */
export function encodeText(s: TextSpec): Buffer {
  const text = Buffer.from(s.text.slice(0, 32).replace(/[^\x20-\x7e]/g, '?'), 'latin1');
  return Buffer.concat([Buffer.from([s.reader ?? 0, s.command ?? 1, s.seconds ?? 0, s.row ?? 1, s.column ?? 1, text.length]), text]);
}
export function decodeText(d: Uint8Array): Required<TextSpec> | undefined {
  if (d.length < 6 || d[5] !== d.length - 6 || d[1] < 1 || d[1] > 4) return undefined;
  const text = Buffer.from(d.subarray(6));
  if (text.some((c) => c < 0x20 || c > 0x7e)) return undefined;
  return { reader: d[0], command: d[1], seconds: d[2], row: d[3], column: d[4], text: text.toString('latin1') };
}

export interface OutputSpec {
  output: number;
  /** 0 NOP, 1 permanent off, 2 permanent on, 3 off then timer, 4 on then timer, 5 on for timer, 6 off for timer */
  code: number;
  /** × 100 ms */
  timer?: number;
}
export const encodeOut = (list: readonly OutputSpec[]) =>
  Buffer.concat(
    list.map((o) => {
      const b = Buffer.alloc(4);
      b[0] = o.output;
      b[1] = o.code;
      b.writeUInt16LE(o.timer ?? 0, 2);
      return b;
    }),
  );
export function decodeOut(d: Uint8Array): Required<OutputSpec>[] | undefined {
  if (d.length === 0 || d.length % 4 !== 0) return undefined;
  const out: Required<OutputSpec>[] = [];
  for (let i = 0; i < d.length; i += 4) {
    if (d[i + 1] > 6) return undefined;
    out.push({ output: d[i], code: d[i + 1], timer: d[i + 2] | (d[i + 3] << 8) });
  }
  return out;
}

export const encodeComset = (c: Com) => encodeCom(c);
export const decodeComset = (d: Uint8Array) => decodeCom(d);

/** osdp_KEYSET: key type 1 (SCBK), length 16, the key. */
export const encodeKeyset = (key: Uint8Array) => Buffer.concat([Buffer.from([0x01, key.length]), key]);
export const decodeKeyset = (d: Uint8Array): Buffer | undefined => (d.length === 18 && d[0] === 0x01 && d[1] === 16 ? Buffer.from(d.subarray(2)) : undefined);

export const encodeU16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
export const decodeU16 = (d: Uint8Array) => (d.length === 2 ? d[0] | (d[1] << 8) : undefined);

/** What the PD sends after the security block of osdp_CCRYPT: its cUID, RND.B and its cryptogram. */
export const decodeCcrypt = (d: Uint8Array) =>
  d.length === 32 ? { cuid: Buffer.from(d.subarray(0, 8)), pdRandom: Buffer.from(d.subarray(8, 16)), cryptogram: Buffer.from(d.subarray(16)) } : undefined;
