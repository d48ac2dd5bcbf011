// The bounded building blocks every contract schema is made of (issue 13): each refuses what would break a
// column, a later request or a screen, with a message a person can read in a form or a `violations` entry.
// The server validates with them and the console's forms show the same rule.
import { Struct, coerce, define, string, type, type Infer } from './structs';
import { registerLeaf, registerMade } from './quickCheck';
import { fill, type Sentence } from './messages';

/** Why a value is refused: a fixed sentence, or one said with values (its key and values beside its English,
 *  contract/messages.ts fill), which a form and a server refusal carry whole and the console says by its key. */
export type Problem = string | Sentence;
/** A problem's English. */
export const problemText = (p: Problem): string => (typeof p === 'string' ? p : p.message);
/** A problem as the message (with key and values when it has them) of a violation. */
export const problemSaid = (p: Problem): { message: string; code?: string; values?: Sentence['values'] } => (typeof p === 'string' ? { message: p } : p);

// The contract's violations with a number or a size in them (issue 48): one key each, its English template here.
export const tooLongText = (max: number) => fill('text.tooLong', 'must be at most {max} characters', { max });
export const tooShortText = (min: number) => fill('text.tooShort', 'must be at least {min} characters', { min });
export const yearOutside = (min: number, max: number) => fill('date.yearOutside', 'must be between {min} and {max}', { min, max });
export const tooSmall = (min: number) => fill('number.tooSmall', 'must be at least {min}', { min });
export const tooLarge = (max: number) => fill('number.tooLarge', 'must be at most {max}', { max });
export const imageTooLarge = (size: string) => fill('image.tooLarge', 'must be an image of at most {size}', { size });
export const tooManyItems = (max: number) => fill('list.tooLong', 'must have at most {max} items', { max });
export const beforeToday = (today: string) => fill('day.beforeToday', 'must not be before today ({today})', { today });
export const beyondToday = (days: number) => fill('day.beyondToday', 'must be within {days} days of today', { days });
export const beyondFirstDay = (days: number) => fill('day.beyondFirstDay', 'must be within {days} days of the first day', { days });
export const beforeFirstDay = () => fill('day.beforeFirstDay', 'must not be before the first day', {});
/** The contract's fixed violations, each a sentence with its key (issue 48): a form and a server refusal carry the key,
 *  the console says it by the key (src/i18n/violations.ts), never by its English. */
export const FIXED_SAID = {
  required: fill('value.required', 'is required', {}),
  notText: fill('text.notText', 'must be text', {}),
  controlCharacters: fill('text.controlCharacters', 'must not contain control characters', {}),
  loneSurrogate: fill('text.loneSurrogate', 'must not contain broken (unpaired surrogate) characters', {}),
  wrongFormat: fill('text.wrongFormat', 'has the wrong format', {}),
  notDate: fill('date.notDate', 'must be a date (YYYY-MM-DD)', {}),
  notRealDate: fill('date.notReal', 'is not a real calendar date', {}),
  notIsoInstant: fill('dateTime.notIsoInstant', 'must be an ISO 8601 date-time with its zone', {}),
  notDateTime: fill('dateTime.notDateTime', 'must be a date and time (ISO 8601 with its zone)', {}),
  notWhole: fill('number.notWhole', 'must be a whole number', {}),
  notPositiveWhole: fill('number.notPositiveWhole', 'must be a positive whole number', {}),
  notNumber: fill('number.notNumber', 'must be a number', {}),
  notEpochMs: fill('epoch.notTime', 'must be a time in milliseconds since 1970', {}),
  before1970: fill('epoch.before1970', 'must not be before 1970', {}),
  tooFarAhead: fill('epoch.tooFarAhead', 'is too far in the future', {}),
  notPlainData: fill('data.notPlain', 'must be plain data (text, numbers, yes/no, lists and objects)', {}),
  notTimeZone: fill('timeZone.notZone', 'must be a time zone', {}),
  unknownTimeZone: fill('timeZone.unknown', 'is not a known time zone (for example Europe/London)', {}),
  notFile: fill('file.notFile', 'must be a file', {}),
  notDataUrlFile: fill('file.notDataUrl', 'must be a file chosen here (a data: URL, not a link)', {}),
  emptyFile: fill('file.empty', 'must not be empty', {}),
  cutImage: fill('image.cut', 'must be a whole image: the file is cut short or damaged', {}),
  notImageContent: fill('image.notImageContent', 'must be a PNG, JPEG, WebP or GIF image (its content is not one)', {}),
  notImage: fill('image.notImage', 'must be an image', {}),
  notDataUrlImage: fill('image.notDataUrl', 'must be a PNG, JPEG, WebP or GIF image (a data: URL, not a link)', {}),
  notList: fill('list.notList', 'must be a list', {}),
};

export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

export interface TextOptions {
  /** Fewest characters (after trimming when `trim`). */
  min?: number;
  /** A format the text must match; `patternMessage` says what it means. */
  pattern?: RegExp;
  patternMessage?: Problem;
  /** Trim surrounding white space before checking and storing. */
  trim?: boolean;
}

// Control characters other than \t \n \r (C0, DEL and C1), and UTF-16 surrogates that are not part of a pair.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` is not acceptable text, or undefined when it is. */
export function textProblem(value: unknown, max: number, opts: TextOptions = {}): Problem | undefined {
  if (typeof value !== 'string') return FIXED_SAID.notText;
  if (value.length > max) return tooLongText(max);
  if (opts.min !== undefined && value.length < opts.min) {
    return opts.min === 1 ? FIXED_SAID.required : tooShortText(opts.min);
  }
  if (CONTROL.test(value)) return FIXED_SAID.controlCharacters;
  if (LONE_SURROGATE.test(value)) return FIXED_SAID.loneSurrogate;
  if (opts.pattern && !opts.pattern.test(value)) return opts.patternMessage ?? FIXED_SAID.wrongFormat;
  return undefined;
}

function withTrim<T, B>(struct: Struct<T, B>, trim: boolean | undefined): Struct<T, B> {
  return trim ? coerce(struct, string(), (s) => s.trim()) : struct;
}

/** The bounds of a text struct: its `schema`, so tests and forms can read them. */
export interface TextBounds {
  max: number;
  min: number;
}
/** The bounds of a number struct: its `schema`. */
export interface NumberBounds {
  min: number;
  max: number;
}
/** A leaf struct named `type` whose `schema` is its bounds (read by the hostile-input test), checked by `problem`. */
function bounded<T, B extends object>(type: string, bounds: B, problem: (v: unknown) => Problem | undefined): Struct<T, B> {
  // the hot paths' quick check asks `problem` itself (quickCheck.ts)
  const test = (v: unknown) => problem(v) === undefined;
  registerLeaf(bounds, test);
  return registerMade(new Struct<T, B>({ type, schema: bounds, validator: (v) => problem(v) ?? true }), { kind: 'test', test });
}

/** Text of at most `max` characters, without NUL or other control characters (\t \n \r allowed) or lone surrogates. */
export function safeText(max: number, opts: TextOptions = {}): Struct<string, TextBounds> {
  const struct = bounded<string, TextBounds>('safeText', { max, min: opts.min ?? 0 }, (v) => textProblem(v, max, opts));
  return withTrim(struct, opts.trim);
}

/** safeText that must not be blank (white space alone is blank). */
export function requiredText(max: number, opts: TextOptions = {}): Struct<string, TextBounds> {
  const struct = bounded<string, TextBounds>('requiredText', { max, min: Math.max(1, opts.min ?? 1) }, (v) => {
    if (typeof v === 'string' && v.trim().length === 0) return FIXED_SAID.required;
    return textProblem(v, max, opts);
  });
  return withTrim(struct, opts.trim);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2999;

/** Why `value` is not a calendar date 'YYYY-MM-DD' between 1900 and 2999, or undefined when it is. */
export function dateProblem(value: unknown): Problem | undefined {
  if (typeof value !== 'string') return FIXED_SAID.notDate;
  const m = DATE.exec(value);
  if (!m) return FIXED_SAID.notDate;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return FIXED_SAID.notRealDate;
  if (y < MIN_YEAR || y > MAX_YEAR) return yearOutside(MIN_YEAR, MAX_YEAR);
  return undefined;
}
function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** A real calendar date written 'YYYY-MM-DD', year 1900..2999 (2025-02-30 and 2025-13-01 refused). */
export function calendarDate(): Struct<string, null> {
  return define<string>('calendarDate', (v) => dateProblem(v) ?? true);
}

/** An instant as the server writes it (ISO 8601 with a zone, e.g. a row's updatedAt sent back by an edit form). */
export function isoInstant(): Struct<string, null> {
  return define<string>(
    'isoInstant',
    (v) =>
      (typeof v === 'string' &&
        v.length <= 40 &&
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) &&
        !Number.isNaN(Date.parse(v))) ||
      FIXED_SAID.notIsoInstant,
  );
}

/** A moment a person types (an override's start): ISO 8601 with its zone, on a real calendar date in 1900..2999
 *  (2025-02-30T10:00Z is refused, where Date.parse would quietly make it 2 March). */
export function dateTimeInstant(): Struct<string, null> {
  return define<string>('dateTimeInstant', (v) => {
    if (
      typeof v !== 'string' ||
      v.length > 40 ||
      !/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) ||
      Number.isNaN(Date.parse(v))
    ) {
      return FIXED_SAID.notDateTime;
    }
    return dateProblem(v.slice(0, 10)) ?? true;
  });
}

/** A whole number that fits a PostgreSQL integer column, within [min, max]. */
export function int32(min = INT32_MIN, max = INT32_MAX): Struct<number, NumberBounds> {
  return bounded<number, NumberBounds>('int32', { min, max }, (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) return FIXED_SAID.notWhole;
    if (v < min) return min === 1 ? FIXED_SAID.notPositiveWhole : tooSmall(min);
    if (v > max) return tooLarge(max);
    return undefined;
  });
}
/** A row id: a positive PostgreSQL integer. */
export const idInt = (): Struct<number, NumberBounds> => int32(1);

/** A finite number within [min, max] (NaN, Infinity and 1e308 refused). */
export function boundedNumber(min: number, max: number): Struct<number, NumberBounds> {
  return bounded<number, NumberBounds>('boundedNumber', { min, max }, (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return FIXED_SAID.notNumber;
    if (v < min) return tooSmall(min);
    if (v > max) return tooLarge(max);
    return undefined;
  });
}

/** A whole number JavaScript holds exactly (±2^53−1), within [min, max]: 2^53+1 and 1e308 refused. */
export function safeInteger(min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Struct<number, NumberBounds> {
  return bounded<number, NumberBounds>('safeInteger', { min, max }, (v) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return FIXED_SAID.notWhole;
    if (v < min) return min === 1 ? FIXED_SAID.notPositiveWhole : tooSmall(min);
    if (v > max) return tooLarge(max);
    return undefined;
  });
}

/** The latest moment a JavaScript Date (and a PostgreSQL timestamp) holds, in milliseconds since 1970. */
export const EPOCH_MS_MAX = 8.64e15;
/** A moment as milliseconds since 1970 (a journal's clock): finite, 0..EPOCH_MS_MAX; 1e308, -1 and NaN refused. */
export function epochMs(): Struct<number, NumberBounds> {
  return bounded<number, NumberBounds>('epochMs', { min: 0, max: EPOCH_MS_MAX }, (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return FIXED_SAID.notEpochMs;
    if (v < 0) return FIXED_SAID.before1970;
    if (v > EPOCH_MS_MAX) return FIXED_SAID.tooFarAhead;
    return undefined;
  });
}

// ---------- free-form JSON ----------

/** How deep free-form JSON (a settings blob, a journal entry's state) may nest inside its field. */
export const JSON_VALUE_MAX_DEPTH = 16;
/** What a boundedJson struct allows: its `schema`, so tests and forms can read the bounds. */
export interface JsonBounds {
  maxChars: number;
  maxDepth: number;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
/** Why a JSON leaf (or a value that is no JSON at all) is not acceptable, or undefined. */
function jsonLeafProblem(v: unknown, maxChars: number): Problem | undefined {
  if (v === null || typeof v === 'boolean') return undefined;
  if (typeof v === 'string') return textProblem(v, maxChars);
  if (typeof v === 'number') {
    return Number.isFinite(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER
      ? undefined
      : fill('number.outsideSafe', 'must be a number between {min} and {max}', { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
  }
  return FIXED_SAID.notPlainData;
}
function jsonLength(v: unknown): number | undefined {
  try {
    return JSON.stringify(v)?.length ?? 0;
  } catch {
    return undefined;
  }
}

/**
 * Any JSON value whose text is at most `maxChars` long and at most `maxDepth` levels deep, in which every string and
 * every key is safe text (no NUL, other control characters or lone surrogates: PostgreSQL's jsonb refuses them) and
 * every number finite and within ±2^53−1. A failure names the place inside (`tenants.rooms.3.name`).
 */
export function boundedJson(maxChars: number, maxDepth = JSON_VALUE_MAX_DEPTH): Struct<unknown, JsonBounds> {
  const bounds: JsonBounds = { maxChars, maxDepth };
  const sized = new WeakMap<object, boolean>(); // the whole value's size, measured once
  const fits = (v: unknown) => {
    if (v === null || typeof v !== 'object') return (jsonLength(v) ?? 0) <= maxChars;
    let ok = sized.get(v);
    if (ok === undefined) {
      const n = jsonLength(v);
      ok = n !== undefined && n <= maxChars;
      sized.set(v, ok);
    }
    return ok;
  };
  const levels: Array<Struct<unknown, JsonBounds>> = [];
  const level = (depth: number): Struct<unknown, JsonBounds> =>
    (levels[depth] ??= new Struct<unknown, JsonBounds>({
      type: 'boundedJson',
      schema: bounds,
      validator: (v) => {
        if (depth === 0 && !fits(v)) return fill('data.tooLarge', 'must be at most {max} characters of data', { max: maxChars });
        if (Array.isArray(v) || isPlainObject(v)) {
          if (depth >= maxDepth) return fill('data.tooDeep', 'is nested too deeply (at most {max} levels)', { max: maxDepth });
          if (Array.isArray(v)) return true;
          // named at the object (the key itself may be what cannot be shown)
          for (const k of Object.keys(v)) {
            const problem = textProblem(k, maxChars);
            if (problem) return fill('data.badKey', 'has a key that {problem}', { problem: problemText(problem) });
          }
          return true;
        }
        return jsonLeafProblem(v, maxChars) ?? true;
      },
      *entries(v) {
        if (depth >= maxDepth || (depth === 0 && !fits(v))) return;
        const child = level(depth + 1);
        if (Array.isArray(v)) for (const [i, x] of v.entries()) yield [i, x, child];
        else if (isPlainObject(v)) for (const k of Object.keys(v)) yield [k, v[k], child];
      },
    }));
  return level(0);
}

const extraFields = new WeakMap<object, Struct<any, any>>();
/**
 * An object with the `known` fields, whose other fields (an event's payload) are each checked with `extra`: superstruct's
 * type() lets them through unchecked.
 */
export function openObject<S extends Record<string, Struct<any, any>>>(
  known: S,
  extra: Struct<any, any>,
): Struct<{ [K in keyof S]: S[K] extends Struct<infer T, any> ? T : never } & Record<string, unknown>, S> {
  const base = type(known);
  const struct = new Struct<any, S>({
    type: 'type',
    schema: known,
    coercer: base.coercer,
    validator: base.validator,
    refiner: base.refiner,
    *entries(v, ctx) {
      yield* base.entries(v, ctx);
      if (isPlainObject(v)) for (const k of Object.keys(v)) if (!(k in known)) yield [k, v[k], extra];
    },
  });
  extraFields.set(struct, extra);
  return struct;
}
/** The struct an openObject() checks its other fields with (undefined for any other struct). */
export const extraFieldsOf = (struct: Struct<any, any>): Struct<any, any> | undefined => extraFields.get(struct);

let zones: Set<string> | undefined;
function zoneSet(): Set<string> {
  if (!zones) {
    const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
    zones = new Set([...(intl.supportedValuesOf?.('timeZone') ?? []), 'UTC']);
  }
  return zones;
}
// Link names of the IANA database (Europe/Kiev, Etc/UTC, US/Eastern) are real zones too, spelled as the database does.
const ZONE_NAME = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*){0,2}$/;
export function isIanaZone(value: string): boolean {
  if (zoneSet().has(value)) return true;
  if (value.length > 64 || !ZONE_NAME.test(value)) return false;
  try {
    return zoneSet().has(new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

/** A real IANA time zone name ('Europe/London', 'UTC'); 'Mars/Phobos' refused. */
export function ianaZone(): Struct<string, null> {
  return define<string>('ianaZone', (v) => {
    if (typeof v !== 'string' || v.length === 0) return FIXED_SAID.notTimeZone;
    return isIanaZone(v) || FIXED_SAID.unknownTimeZone;
  });
}

const DATA_URL = /^data:image\/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/]*={0,2})$/;
const PREFIX_MAX = 'data:image/jpeg;base64,'.length;

/** Bytes `base64` decodes to. */
export function base64Bytes(base64: string): number {
  const pad = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - pad;
}

const FILE_DATA_URL = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)?;base64,([A-Za-z0-9+/]*={0,2})$/;

/** Any file as a data: URL (its media type, or none, and base64) of 1 to `maxBytes` bytes decoded: a firmware image. */
export function fileDataUrl(maxBytes: number): Struct<string, null> {
  const maxChars = 100 + Math.ceil(maxBytes / 3) * 4;
  const limit = maxBytes >= 1 << 20 ? `${+(maxBytes / (1 << 20)).toFixed(1)} MB` : `${Math.round(maxBytes / 1024)} KB`;
  return define<string>('fileDataUrl', (v) => {
    if (typeof v !== 'string' || v === '') return FIXED_SAID.notFile;
    if (v.length > maxChars) return fill('file.tooLarge', 'must be a file of at most {size}', { size: limit });
    const m = FILE_DATA_URL.exec(v);
    if (!m || m[2].length % 4 !== 0) return FIXED_SAID.notDataUrlFile;
    const bytes = base64Bytes(m[2]);
    if (bytes < 1) return FIXED_SAID.emptyFile;
    if (bytes > maxBytes) return fill('file.tooLarge', 'must be a file of at most {size}', { size: limit });
    return true;
  });
}

/** The bytes of a slice of base64 (at a multiple of 4 characters). */
function base64Slice(base64: string, from: number, to: number): number[] {
  return Array.from(atob(base64.slice(from, to)), (c) => c.charCodeAt(0));
}
const startsWith = (b: number[], sig: number[], at = 0) => sig.every((x, i) => b[at + i] === x);
const ascii = (t: string) => Array.from(t, (c) => c.charCodeAt(0));

let crcTable: Uint32Array | null = null;
function crc32(b: Uint8Array, from: number, to: number): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = crcTable[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
/** Issue 45: every chunk of a PNG is whole (its CRC matches its type and data: the compressed pixels too), up to an IEND
 *  that ends the file. */
function pngChunksWhole(base64: string): boolean {
  const text = atob(base64);
  const b = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) b[i] = text.charCodeAt(i);
  const u32 = (at: number) => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
  for (let at = 8; at + 12 <= b.length;) {
    const length = u32(at);
    const end = at + 12 + length;
    if (end > b.length || crc32(b, at + 4, at + 8 + length) !== u32(at + 8 + length)) return false;
    if (b[at + 4] === 0x49 && b[at + 5] === 0x45 && b[at + 6] === 0x4e && b[at + 7] === 0x44) return end === b.length; // IEND
    at = end;
  }
  return false;
}

/**
 * Issue 45: the image is whole, as its own format says, whatever media type the data: URL names (a photo cut short in
 * an upload or damaged was kept and showed broken everywhere). PNG: its signature, and every chunk's CRC up to the final
 * IEND (damaged compressed pixels are found too). The others carry no checksum and are read from their first and last
 * bytes: JPEG's SOI and EOI markers (a few bytes of padding after EOI allowed), GIF's header and trailer, WebP's RIFF
 * length.
 */
function wholeImage(base64: string): true | Problem {
  const bytes = base64Bytes(base64);
  const head = base64Slice(base64, 0, 16); // 12 bytes
  const tailFrom = Math.max(0, base64.length - 64);
  const tail = base64Slice(base64, tailFrom, base64.length); // up to 48 bytes, the last ones
  const cut = FIXED_SAID.cutImage;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return startsWith(tail, [...ascii('IEND'), 0xae, 0x42, 0x60, 0x82], tail.length - 8) && pngChunksWhole(base64) ? true : cut;
  if (startsWith(head, [0xff, 0xd8, 0xff])) {
    const end = tail.slice(-16);
    return end.some((x, i) => x === 0xff && end[i + 1] === 0xd9) ? true : cut;
  }
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return tail[tail.length - 1] === 0x3b ? true : cut;
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) {
    const riff = (head[4] | (head[5] << 8) | (head[6] << 16) | (head[7] << 24)) >>> 0;
    return riff + 8 === bytes ? true : cut;
  }
  return FIXED_SAID.notImageContent;
}

/** An image as a data: URL (PNG, JPEG, WebP or GIF, base64) of at most `maxBytes` decoded; no remote URLs. */
export function imageDataUrl(maxBytes: number): Struct<string, null> {
  const maxChars = PREFIX_MAX + Math.ceil(maxBytes / 3) * 4;
  const limit = maxBytes >= 1 << 20 ? `${+(maxBytes / (1 << 20)).toFixed(1)} MB` : maxBytes >= 1024 ? `${Math.round(maxBytes / 1024)} KB` : `${maxBytes} bytes`;
  return define<string>('imageDataUrl', (v) => {
    if (typeof v !== 'string') return FIXED_SAID.notImage;
    if (v.length > maxChars) return imageTooLarge(limit);
    const m = DATA_URL.exec(v);
    if (!m || m[2].length % 4 !== 0) return FIXED_SAID.notDataUrlImage;
    if (base64Bytes(m[2]) > maxBytes) return imageTooLarge(limit);
    return wholeImage(m[2]);
  });
}

/** A list of at most `max` items; a longer list is refused before any item is checked. */
const listMax = new WeakMap<object, number>();
/** The most items a boundedList() takes (undefined for any other struct). */
export const listMaxOf = (struct: Struct<any, any>): number | undefined => listMax.get(struct);

export function boundedList<T, S>(element: Struct<T, S>, max: number): Struct<T[], Struct<T, S>> {
  const struct = new Struct<T[], Struct<T, S>>({
    type: 'array',
    schema: element,
    *entries(value) {
      if (Array.isArray(value) && value.length <= max) {
        for (const [i, v] of value.entries()) yield [i, v, element];
      }
    },
    coercer: (value) => (Array.isArray(value) ? value.slice() : value),
    validator: (value) => {
      if (!Array.isArray(value)) return FIXED_SAID.notList;
      return value.length <= max || tooManyItems(max);
    },
  });
  listMax.set(struct, max);
  return struct;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** An e-mail address of at most `max` characters. */
export function emailAddress(max = 254): Struct<string, null> {
  return define<string>('emailAddress', (v) => {
    const problem = textProblem(v, max, { min: 3 });
    if (problem) return problem;
    return EMAIL.test(v as string) || FIXED_SAID.wrongFormat; // §5's message for a malformed address
  });
}

export type SafeText = Infer<ReturnType<typeof safeText>>;
