// Stand-in for the edge-hardening branch's field primitives (h-edges): the same names, simple bodies. When that
// branch merges, take its file as it is; contract/resources maps field kinds onto these in one function.
import { array, integer, max, min, number, pattern, refine, size, string, type Struct } from 'superstruct';

export interface TextOpts { min?: number; pattern?: RegExp; trim?: boolean }

/** Text of at most `max` characters (and at least `min`), optionally matching a pattern. */
export function safeText(maxLen: number, opts: TextOpts = {}): Struct<string, null> {
  let s: Struct<string, any> = size(string(), opts.min ?? 0, maxLen);
  if (opts.pattern) s = pattern(s, opts.pattern);
  if ((opts.min ?? 0) > 0) s = refine(s, 'nonBlank', (v) => v.trim().length > 0 || 'must not be blank');
  return s as Struct<string, null>;
}
/** Text that must be there and not blank. */
export function requiredText(maxLen: number, opts: TextOpts = {}): Struct<string, null> {
  return safeText(maxLen, { ...opts, min: Math.max(1, opts.min ?? 1) });
}
/** YYYY-MM-DD that is a real day of the calendar. */
export function calendarDate(): Struct<string, null> {
  return refine(pattern(string(), /^\d{4}-\d{2}-\d{2}$/), 'calendarDate', (v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return (!Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v) || 'is not a date';
  }) as Struct<string, null>;
}
export function int32(lo = -2_147_483_648, hi = 2_147_483_647): Struct<number, null> {
  return max(min(integer(), lo), hi) as Struct<number, null>;
}
export function idInt(): Struct<number, null> {
  return int32(1, 2_147_483_647);
}
export function boundedNumber(lo: number, hi: number): Struct<number, null> {
  return max(min(number(), lo), hi) as Struct<number, null>;
}
/** An IANA time-zone name the runtime knows. */
export function ianaZone(): Struct<string, null> {
  return refine(size(string(), 1, 64), 'ianaZone', (v) => {
    try { new Intl.DateTimeFormat('en', { timeZone: v }); return true; } catch { return 'is not a known time zone'; }
  }) as Struct<string, null>;
}
/** A base64 data URL of an image, at most about `maxBytes` decoded. */
export function imageDataUrl(maxBytes: number): Struct<string, null> {
  return pattern(size(string(), 0, Math.ceil((maxBytes * 4) / 3) + 64), /^(data:image\/[\w.+-]+;base64,[A-Za-z0-9+/=]+)?$/) as Struct<string, null>;
}
export function boundedList<T>(struct: Struct<T, any>, maxItems: number): Struct<T[], Struct<T, any>> {
  return size(array(struct), 0, maxItems) as Struct<T[], Struct<T, any>>;
}
export function emailAddress(maxLen = 254): Struct<string, null> {
  return pattern(size(string(), 3, maxLen), /^[^\s@]+@[^\s@]+\.[^\s@]+$/) as Struct<string, null>;
}
