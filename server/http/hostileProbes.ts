// Hostile values made from a contract struct (issues 13 and 27), for the tests that prove a class of input closed: every
// mutating REST route (http/hostile.property.test.ts) and every message an edge controller sends up its connection
// (edge/hostileUplink.test.ts). For each field, at any depth, free-form fields included: what no field of its kind may
// take (NUL, lone surrogates, text past its bound, nesting past its depth, numbers past its range), placed in a body the
// struct otherwise accepts, so a refusal is the hostile value's doing.
import fc from 'fast-check';
import { is, type Struct } from 'superstruct';
import { JSON_VALUE_MAX_DEPTH, extraFieldsOf, listMaxOf, type JsonBounds, type NumberBounds, type TextBounds } from '../../contract';

const TINY_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
/** Values a field of some kind may well accept: each field takes those its own struct accepts, so bodies get deep. */
const PLAUSIBLE: unknown[] = [
  'Edge',
  'EDGE-1',
  'ED',
  '#2d72d2',
  'edge@example.com',
  '+60 12 345',
  'Europe/London',
  'UTC',
  '2025-01-15',
  '2025-01-16',
  'A long enough password 1!',
  '2025-01-15T10:00:00Z',
  1,
  2,
  0,
  1_714_550_400_000,
  true,
  false,
  null,
  [],
  'meeting',
  'card',
  'active',
  'lock',
  TINY_PNG,
  // a sentence's key and its values (an edge's answer, issue 48: contract SentenceKey, SentenceValues)
  'edge.sample',
  {},
];

type AnyStruct = Struct<any, any>;
type Path = Array<string | number>;
/** One hostile value and where it goes in a body; `free`: inside a free-form field (always sent, however big the schema). */
interface Case {
  path: Path;
  value: unknown;
  free?: boolean;
}

const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);
const TEXT_HOSTILE = ['nul\u0000byte', 'lone \uD800 surrogate', '\uDC00', 'escape \u001b[31m', 'x'.repeat(70_000)];
/** Numbers no JavaScript integer, column or time takes, and numbers sent as text; a field's own bounds add more. */
const NUMBER_HOSTILE = [2 ** 53 + 1, 1e308, -1e308, 9223372036854775808, 'NaN', 'Infinity', '-Infinity', '1'];
/** Past an integer column, for number fields that do not say their bounds. */
const INT32_PAST = [2 ** 31, -(2 ** 31) - 1];
const INTEGER_KINDS = new Set(['int32', 'integer', 'safeInteger']);
const NUMBER_KINDS = new Set([...INTEGER_KINDS, 'number', 'boundedNumber', 'epochMs']);
const TEXT_KINDS = new Set(['safeText', 'requiredText', 'emailAddress', 'string', 'enums', 'literal', 'union', 'isoInstant', 'dateTimeInstant', 'fileDataUrl']);
/** Kinds that hold any JSON: walked into with what PostgreSQL's jsonb or a later reader cannot take. */
const FREE_KINDS = new Set(['boundedJson', 'unknown', 'any', 'record', 'udf']);

/** What no free-form JSON field may hold, at any depth; past its own bounds when it has them. */
function jsonHostile(b: JsonBounds | null): unknown[] {
  const maxChars = b?.maxChars ?? 65_536;
  return [
    'nul\u0000byte',
    { note: 'nul\u0000' },
    ['lone \uD800'],
    { deeper: { list: ['x', '\uDC00'] } },
    { 'key\u0000': 1 },
    { 'lone\uD800key': 'x' },
    'x'.repeat(maxChars + 1),
    ...(maxChars < 70_000 ? [{ long: 'x'.repeat(70_000) }] : []),
    deep((b?.maxDepth ?? JSON_VALUE_MAX_DEPTH) + 2),
    { n: 1e308 },
    [[{ n: -1e308 }]],
    { big: 2 ** 53 + 1 },
    // eslint-disable-next-line no-loss-of-precision -- deliberately beyond 2^53: the server must refuse or round it, not crash
    { list: [1, 2, 9007199254740993] },
  ];
}

/** What no field of a kind may accept, whatever else its rules are (and past its own bounds where it says them). */
function hostileFor(struct: AnyStruct): unknown[] {
  const t = struct.type;
  if (TEXT_KINDS.has(t)) {
    const max = (struct.schema as TextBounds | null)?.max;
    return typeof max === 'number' && (t === 'safeText' || t === 'requiredText') ? [...TEXT_HOSTILE, 'x'.repeat(max + 1)] : TEXT_HOSTILE;
  }
  if (NUMBER_KINDS.has(t)) {
    const b = struct.schema as NumberBounds | null;
    const edges = b && typeof b.min === 'number' ? [b.min - 1, b.max + 1].filter((x) => Number.isFinite(x)) : INT32_PAST;
    return [...NUMBER_HOSTILE, ...edges, ...(INTEGER_KINDS.has(t) ? [1.5] : [])];
  }
  if (FREE_KINDS.has(t)) return jsonHostile(t === 'boundedJson' ? (struct.schema as JsonBounds) : null);
  switch (t) {
    case 'calendarDate':
      return [...TEXT_HOSTILE, '2025-02-30', '2025-13-01', '0000-00-00', '2025-1-1'];
    case 'ianaZone':
    case 'timeZone':
      return [...TEXT_HOSTILE, '', ' ', 'Mars/Phobos', 'europe/london'];
    case 'imageDataUrl':
      return [...TEXT_HOSTILE, 'https://evil.example/p.png', 'data:image/svg+xml;base64,PHN2Zz4=', `data:image/png;base64,${'A'.repeat(2_100_000)}`];
    case 'boolean':
      return ['yes', 1, 'nul\u0000'];
    case 'object':
    case 'type':
    case 'array':
      return ['not an object', 42];
    default:
      return [];
  }
}

/** The most items a list struct takes, as its own refusal of a (sparse) billion-item list says, wrapped or not. */
function listMax(struct: AnyStruct): number | undefined {
  const huge: unknown[] = [];
  huge.length = 1e9;
  const said = [...struct.validator(huge, { branch: [huge], path: [] })].map((f) => f.message).join(' ');
  const m = /at most (\d+) items/.exec(said);
  return m ? Number(m[1]) : listMaxOf(struct);
}

/** Every hostile value a struct's fields (at any depth, free-form fields included) may receive, with its place. */
export function cases(struct: AnyStruct, depth = 0): Case[] {
  if (depth > 8) return [];
  const t = struct.type;
  if ((t === 'object' || t === 'type') && struct.schema) {
    const out: Case[] = hostileFor(struct).map((value) => ({ path: [], value }));
    for (const [k, f] of Object.entries(struct.schema as Record<string, AnyStruct>)) {
      for (const c of cases(f, depth + 1)) out.push({ ...c, path: [k, ...c.path] });
    }
    // the other fields an open object checks (an event's payload)
    const extra = extraFieldsOf(struct);
    if (extra) for (const c of cases(extra, depth + 1)) out.push({ ...c, path: ['payload', ...c.path] });
    return out;
  }
  if (t === 'array') {
    const element = struct.schema as AnyStruct | null;
    // one item more than the list takes (its own bound, else more than any list should)
    const out: Case[] = [
      { path: [], value: Array.from({ length: (listMax(struct) ?? 100_000) + 1 }, () => 1) },
      { path: [], value: 'not a list' },
    ];
    // a list of anything (each item checked later, as a device batch's events) gets free-form items
    const inner = element ? cases(element, depth + 1) : jsonHostile(null).map((value) => ({ path: [] as Path, value, free: true }));
    for (const c of inner) out.push({ ...c, path: [0, ...c.path] });
    return out;
  }
  return hostileFor(struct).map((value) => ({ path: [], value, free: FREE_KINDS.has(struct.type) }));
}

/** A value the struct might accept (preferring ones it does), recursing into objects and lists. */
function plausible(struct: AnyStruct, full = false): fc.Arbitrary<unknown> {
  if ((struct.type === 'object' || struct.type === 'type') && struct.schema) {
    const fields = struct.schema as Record<string, AnyStruct>;
    return fc.record(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, plausible(f, full)])), full ? {} : { requiredKeys: [] });
  }
  if (struct.type === 'array' && struct.schema) return fc.array(plausible(struct.schema as AnyStruct, full), { minLength: full ? 1 : 0, maxLength: 2 });
  const own = struct.type === 'enums' ? Object.values(struct.schema as object) : struct.type === 'literal' ? [struct.schema] : [];
  const accepted = [...own, ...PLAUSIBLE].filter((v) => is(v, struct));
  return accepted.length ? fc.constantFrom(...accepted) : fc.constantFrom(...PLAUSIBLE);
}
/** A body the struct accepts when one can be found among plausible ones (so a refusal is the hostile value's doing). */
export function validBase(struct: AnyStruct, seed: number): unknown {
  const tries = [...fc.sample(plausible(struct, true), { numRuns: 60, seed }), ...fc.sample(plausible(struct), { numRuns: 60, seed })];
  return tries.find((v) => is(v, struct)) ?? tries[0];
}

/** `base` with `value` put at `path` (lists and objects made on the way). */
export function place(base: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(base) ? base.slice() : [];
    list[head] = place(list[head], rest, value);
    return list;
  }
  const obj = base !== null && typeof base === 'object' && !Array.isArray(base) ? { ...(base as object) } : {};
  return { ...obj, [head]: place((obj as Record<string, unknown>)[head], rest, value) };
}

/** A route's probe: the body (JSON value or NDJSON text) and the field a refusal should name. */
export interface Probe {
  body?: unknown;
  raw?: string;
  ndjson?: boolean;
  field: string;
  show: string;
}

/** Every probe when the schema is small; else every free-form one (`all`) and a seeded sample of the rest (`arbitrary`). */
export function jsonProbes(struct: AnyStruct, seed: number, everyUpTo: number): { all: Probe[]; arbitrary: fc.Arbitrary<Probe> | null } | null {
  const every = cases(struct);
  if (!every.length) return null;
  const small = every.length <= everyUpTo;
  const rest = small ? [] : every.filter((c) => !c.free);
  const toProbe = (base: unknown, c: Case): Probe => {
    const body = place(base, c.path, c.value);
    return { body, field: c.path.join('.') || '(body)', show: `${c.path.join('.') || '(body)'} = ${JSON.stringify(c.value)?.slice(0, 60)}` };
  };
  const base = validBase(struct, seed);
  return {
    all: (small ? every : every.filter((c) => c.free)).map((c) => toProbe(base, c)),
    arbitrary: rest.length ? fc.tuple(plausible(struct), fc.constantFrom(...rest)).map(([b, c]) => toProbe(b, c)) : null,
  };
}

/** NDJSON chunks of valid lines in which one line (the header, or the second entry) holds one hostile value. */
export function lineProbes(schemas: { first: AnyStruct; rest: AnyStruct }, seed: number): Probe[] {
  const header = validBase(schemas.first, seed);
  const entry = (seq: number) => ({ ...(validBase(schemas.rest, seed) as object), seq });
  const chunk = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  const probes: Probe[] = [];
  for (const c of cases(schemas.first)) {
    const field = `line 1${c.path.length ? `.${c.path.join('.')}` : ''}`;
    probes.push({
      raw: chunk([place(header, c.path, c.value), entry(1), entry(2)]),
      ndjson: true,
      field,
      show: `${field} = ${JSON.stringify(c.value)?.slice(0, 60)}`,
    });
  }
  for (const c of cases(schemas.rest)) {
    const field = `line 3${c.path.length ? `.${c.path.join('.')}` : ''}`;
    probes.push({
      raw: chunk([header, entry(1), place(entry(2), c.path, c.value)]),
      ndjson: true,
      field,
      show: `${field} = ${JSON.stringify(c.value)?.slice(0, 60)}`,
    });
  }
  return probes;
}
