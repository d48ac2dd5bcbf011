// The contract's superstruct schemas as JSON Schema (2020-12, as OpenAPI 3.1 takes it), for the API description only
// (issue 48): one source of truth, so the document cannot drift from what the routes validate. Superstruct keeps a
// struct's kind (`type`) and its parts (`schema`) but not its refinements' bounds (a size or a pattern is a function):
// the document names the kind and the shape, with the bounds our own text and number kinds keep (contract/primitives.ts),
// and the routes' own validation, with the same structs, says the rest in its `violations`. A struct of our own kind (`define('calendarDate', …)`) is a string or value named by its kind.
import type { Struct } from 'superstruct';

export type JsonSchema = Record<string, unknown>;

/** Kinds of our own (contract/primitives.ts, contract/schemas.ts) that are strings, with their format where JSON Schema has one. */
const STRING_KINDS: Record<string, string | null> = {
  calendarDate: 'date',
  dateTimeInstant: 'date-time',
  ianaZone: null,
  timeZone: null,
  fileDataUrl: null,
  imageDataUrl: null,
  emailAddress: 'email',
  sort: null,
};

/** Kinds of our own with their bounds as their `schema` (contract/primitives.ts `bounded`): text and numbers. */
const TEXT_KINDS = new Set(['safeText', 'requiredText']);
const NUMBER_KINDS: Record<string, 'integer' | 'number'> = { int32: 'integer', safeInteger: 'integer', epochMs: 'integer', boundedNumber: 'number' };

type AnyStruct = Struct<any, any>;

/**
 * The parts of a union or intersection: superstruct keeps none (its `schema` is null), so a union the document shows
 * is named here with its parts (./declared.ts); one not named is any value.
 */
export const STRUCT_PARTS = new Map<AnyStruct, AnyStruct[]>();
const partsOf = (s: AnyStruct) => (Array.isArray(s.schema) ? (s.schema as AnyStruct[]) : STRUCT_PARTS.get(s));

const accepts = (s: AnyStruct, value: unknown) => {
  try {
    return s.validate(value)[0] === undefined;
  } catch {
    return false;
  }
};

/** What a defaulted struct (superstruct's `defaulted`, a coercion the routes apply) makes of a property left out. */
function defaultOf(s: AnyStruct): { value: unknown } | undefined {
  if (accepts(s, undefined)) return undefined;
  try {
    const [err, value] = s.validate(undefined, { coerce: true });
    return err === undefined && value !== undefined ? { value } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an object's property may be left out: superstruct's `optional` (the struct takes undefined) or `defaulted`
 *  (the routes coerce, so a body without it gets its default: the generated client must not demand it). */
export const isOptional = (s: AnyStruct) => accepts(s, undefined) || defaultOf(s) !== undefined;

function withNull(schema: JsonSchema, s: AnyStruct): JsonSchema {
  if (!accepts(s, null) || schema.type === 'null') return schema;
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

function objectSchema(shape: Record<string, AnyStruct>, additional: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [k, v] of Object.entries(shape)) {
    const fallback = defaultOf(v);
    properties[k] = fallback ? { ...toJsonSchema(v), default: fallback.value } : toJsonSchema(v);
    if (!isOptional(v)) required.push(k);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), ...(additional ? {} : { additionalProperties: false }) };
}

/** One struct as JSON Schema. */
export function toJsonSchema(s: AnyStruct): JsonSchema {
  const schema = s.schema as unknown;
  let out: JsonSchema;
  switch (s.type) {
    case 'object':
      out = schema ? objectSchema(schema as Record<string, AnyStruct>, false) : { type: 'object' };
      break;
    case 'type':
      out = objectSchema(schema as Record<string, AnyStruct>, true);
      break;
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      out = { type: s.type };
      break;
    case 'bigint':
      out = { type: 'integer' };
      break;
    case 'array':
      out = schema ? { type: 'array', items: toJsonSchema(schema as AnyStruct) } : { type: 'array' };
      break;
    case 'tuple':
      out = { type: 'array', prefixItems: (schema as AnyStruct[]).map(toJsonSchema) };
      break;
    case 'enums':
      out = { enum: Object.values(schema as Record<string, unknown>) };
      break;
    case 'literal':
      out = { const: schema };
      break;
    case 'union':
      out = partsOf(s) ? { anyOf: partsOf(s)!.map(toJsonSchema) } : {};
      break;
    case 'intersection':
      out = partsOf(s) ? { allOf: partsOf(s)!.map(toJsonSchema) } : {};
      break;
    case 'record':
      out = { type: 'object' };
      break;
    case 'date':
      out = { type: 'string', format: 'date-time' };
      break;
    case 'never':
      out = { not: {} };
      break;
    case 'any':
    case 'unknown':
    case 'dynamic':
    case 'lazy':
    case 'func':
      out = {};
      break;
    default: {
      const bounds = (schema ?? {}) as { min?: number; max?: number };
      if (TEXT_KINDS.has(s.type)) {
        out = { type: 'string', ...(bounds.min ? { minLength: bounds.min } : {}), ...(bounds.max !== undefined ? { maxLength: bounds.max } : {}) };
        break;
      }
      if (s.type in NUMBER_KINDS) {
        out = {
          type: NUMBER_KINDS[s.type],
          ...(bounds.min !== undefined ? { minimum: bounds.min } : {}),
          ...(bounds.max !== undefined ? { maximum: bounds.max } : {}),
        };
        break;
      }
      const format = STRING_KINDS[s.type];
      out = s.type in STRING_KINDS ? { type: 'string', ...(format ? { format } : {}) } : {};
      out.description = s.type; // the contract's own kind, named
    }
  }
  return withNull(out, s);
}

/**
 * A struct's JSON schema made once per process and kept by the struct (toJsonSchema asks each part's struct whether it
 * takes undefined and null, and what its default is: 75 ms of processor a server build for the 300-odd bodies and
 * queries, and the test files build hundreds of servers). The structs are made once per process (the contract's
 * constants; the catalogue's through contract/resources/derive.ts), so each build after the first finds its schemas
 * here. Frozen, since every build and every document share it: something that would change it throws instead of
 * changing every later build's (Fastify, its validation and @fastify/swagger only read a route's body and query
 * schemas: ./jsonSchemaOf.test.ts); a copy, so that no value the schema shares with its struct (a default, a literal)
 * is frozen with it. STRUCT_PARTS is filled when ./declared.ts is loaded, before any route is registered.
 */
export function jsonSchemaOf(s: AnyStruct): JsonSchema {
  let schema = MADE.get(s);
  if (schema === undefined) MADE.set(s, (schema = frozenCopy(toJsonSchema(s))));
  return schema;
}
const MADE = new WeakMap<AnyStruct, JsonSchema>();

/** Plain objects and arrays copied and frozen all the way down; any other value as it is. */
function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.freeze(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frozenCopy(v)]))) as T;
  return value;
}
