// Shared by the server (decisions, validation) and the console (the card format form's "Test a raw value").
// Card formats (issue 12, Hardware: card format [0.5.2.x]): a raw Wiegand bit string read at a reader becomes a
// facility code and a card number by the reader's formats, checked by their parity bits. The standard layouts
// (26-bit H10301, 34-bit, 37-bit H10304) are given; custom layouts use the same description.
import { fill, type Sentence } from './messages';
import type { Violation } from './violation';

/** Bits counted from 0 at the first bit received (the leftmost of the string). */
export interface BitRange {
  start: number;
  length: number;
}
export interface ParityBit {
  bit: number;
  type: 'even' | 'odd';
  over: BitRange;
}
export interface CardFormat {
  id: number;
  name: string;
  bits: number;
  facility: BitRange | null;
  card: BitRange;
  parity: readonly ParityBit[];
}

export const STANDARD_FORMATS: readonly Omit<CardFormat, 'id'>[] = [
  {
    name: 'Wiegand 26 (H10301)',
    bits: 26,
    facility: { start: 1, length: 8 },
    card: { start: 9, length: 16 },
    parity: [
      { bit: 0, type: 'even', over: { start: 1, length: 12 } },
      { bit: 25, type: 'odd', over: { start: 13, length: 12 } },
    ],
  },
  {
    name: 'Wiegand 34',
    bits: 34,
    facility: { start: 1, length: 16 },
    card: { start: 17, length: 16 },
    parity: [
      { bit: 0, type: 'even', over: { start: 1, length: 16 } },
      { bit: 33, type: 'odd', over: { start: 17, length: 16 } },
    ],
  },
  {
    name: 'Wiegand 37 (H10304)',
    bits: 37,
    facility: { start: 1, length: 16 },
    card: { start: 17, length: 19 },
    parity: [
      { bit: 0, type: 'even', over: { start: 1, length: 18 } },
      { bit: 36, type: 'odd', over: { start: 18, length: 18 } },
    ],
  },
];

/** Why a value did not decode, as a sentence with placeholders (a console says it in its language): its English
 *  (`text`, the card format test screen says it by that, src/i18n/text.ts) and its key (`code`, the "Why?" drawer
 *  says it as a sentence by it, src/i18n/sentences.ts). */
export interface DecodeWhy {
  text: string;
  code: string;
  vars: Record<string, string | number>;
}
/** Every reason a value does not decode by a format, by key. */
export const DECODE_WHYS = {
  'cardFormat.notBits': 'the raw value is not a string of 0 and 1',
  'cardFormat.wrongLength': '{n} bits, {name} has {bits}',
  'cardFormat.evenParity': 'even parity bit {bit} does not match',
  'cardFormat.oddParity': 'odd parity bit {bit} does not match',
} as const;
/** A failed decode: the problem in English, and by `decode`, each format's own (`failures`, in the formats' order). */
export type DecodeResult =
  | { ok: true; format: string; facility: number | null; card: number }
  | { ok: false; problem: string; why?: DecodeWhy; failures?: { format: string; problem: string; why: DecodeWhy }[] };
const fail = (code: keyof typeof DECODE_WHYS, vars: Record<string, string | number> = {}): DecodeResult => ({
  ok: false,
  problem: DECODE_WHYS[code].replace(/\{(\w+)\}/g, (_m, k: string) => String(vars[k] ?? '')),
  why: { text: DECODE_WHYS[code], code, vars },
});

const ones = (bits: string, r: BitRange) => {
  let n = 0;
  for (let i = r.start; i < r.start + r.length; i++) if (bits[i] === '1') n++;
  return n;
};
const value = (bits: string, r: BitRange) => parseInt(bits.slice(r.start, r.start + r.length), 2);

/** Decodes `bits` ('0'/'1' characters) by one format, checking its length and every parity bit. */
export function decodeWith(format: Omit<CardFormat, 'id'>, bits: string): DecodeResult {
  if (!/^[01]+$/.test(bits)) return fail('cardFormat.notBits');
  if (bits.length !== format.bits) return fail('cardFormat.wrongLength', { n: bits.length, name: format.name, bits: format.bits });
  for (const p of format.parity) {
    const count = ones(bits, p.over) + (bits[p.bit] === '1' ? 1 : 0);
    if ((p.type === 'even') !== (count % 2 === 0)) return fail(p.type === 'even' ? 'cardFormat.evenParity' : 'cardFormat.oddParity', { bit: p.bit });
  }
  return { ok: true, format: format.name, facility: format.facility ? value(bits, format.facility) : null, card: value(bits, format.card) };
}

/** The first of `formats` that decodes `bits`, or why none did. */
export function decode(formats: readonly Omit<CardFormat, 'id'>[], bits: string): DecodeResult {
  const failures: { format: string; problem: string; why: DecodeWhy }[] = [];
  for (const f of formats) {
    const r = decodeWith(f, bits);
    if (r.ok) return r;
    failures.push({ format: f.name, problem: r.problem, why: r.why! });
  }
  return {
    ok: false,
    problem: failures.length ? failures.map((x) => `${x.format}: ${x.problem}`).join('; ') : 'this reader accepts no card format',
    failures,
  };
}

/** Encodes a facility code and card number in a format, with its parity bits (the simulator's cards, tests). */
export function encode(format: Omit<CardFormat, 'id'>, facility: number | null, card: number): string {
  const bits = Array<string>(format.bits).fill('0');
  const put = (r: BitRange, v: number) => {
    const s = v.toString(2);
    if (s.length > r.length || v < 0) throw new RangeError(`${v} does not fit in ${r.length} bits`);
    s.padStart(r.length, '0')
      .split('')
      .forEach((c, i) => {
        bits[r.start + i] = c;
      });
  };
  if (format.facility) put(format.facility, facility ?? 0);
  put(format.card, card);
  for (const p of format.parity) {
    const n = ones(bits.join(''), p.over);
    bits[p.bit] = (p.type === 'even' ? n % 2 === 1 : n % 2 === 0) ? '1' : '0';
  }
  return bits.join('');
}

/** A violation of a field, said with its key (issue 48). */
const at = (field: string, said: Sentence): Violation => ({ field, ...said });

/** What is wrong with a custom layout: fields outside the bit count, fields or parity bits that overlap. */
export function formatViolations(f: Omit<CardFormat, 'id'>): Violation[] {
  const out: Violation[] = [];
  if (!Number.isInteger(f.bits) || f.bits < 8 || f.bits > 128)
    out.push(at('bits', fill('cardFormat.bitsRange', 'must be a whole number from {min} to {max}', { min: 8, max: 128 })));
  const ranges: Array<[string, BitRange]> = [['card', f.card], ...(f.facility ? [['facility', f.facility] as [string, BitRange]] : [])];
  f.parity.forEach((p, i) => ranges.push([`parity.${i}.bit`, { start: p.bit, length: 1 }]));
  for (const [field, r] of ranges) {
    if (!Number.isInteger(r.start) || !Number.isInteger(r.length) || r.start < 0 || r.length < 1 || r.start + r.length > f.bits) {
      out.push(at(field, fill('cardFormat.outsideBits', 'must lie within the {bits} bits', { bits: f.bits })));
    }
  }
  if (f.card.length > 48 || (f.facility && f.facility.length > 48))
    out.push(at('card', fill('cardFormat.fieldTooLong', 'fields longer than {max} bits are not supported', { max: 48 })));
  for (let a = 0; a < ranges.length; a++) {
    for (let b = a + 1; b < ranges.length; b++) {
      const [fa, ra] = ranges[a];
      const [fb, rb] = ranges[b];
      if (ra.start < rb.start + rb.length && rb.start < ra.start + ra.length)
        out.push(at(fb, fill('cardFormat.overlaps', 'overlaps {other}', { other: fa.replace(/\.bit$/, '') })));
    }
  }
  f.parity.forEach((p, i) => {
    if (p.over.start < 0 || p.over.start + p.over.length > f.bits)
      out.push(at(`parity.${i}.over`, fill('cardFormat.outsideBits', 'must lie within the {bits} bits', { bits: f.bits })));
    else if (p.bit >= p.over.start && p.bit < p.over.start + p.over.length)
      out.push(at(`parity.${i}.over`, fill('cardFormat.parityIncludesItself', 'must not include its own parity bit', {})));
  });
  return out;
}
