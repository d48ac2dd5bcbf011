// A quicker answer to "does superstruct accept this value as it is?" for the hot paths (the device interface checks up
// to 5,000 messages a request, issue 30: superstruct's `validate` was 12 % of the server's processor time at its ingest
// ceiling). It asks each struct of the schema what superstruct's `run` asks (its coercer, validator, entries and
// refiner), without run's generators per level, path and branch arrays and result tuples; the leaves our primitives
// make (primitives.ts) and superstruct's `enums` are asked through their own predicate, with no generator at all. It
// answers true only when superstruct accepts the value and `create` would return it unchanged (every coercer the
// identity, an object's copy equal to it): then the value itself is the validated value. Anything else answers false,
// and the caller runs `validate` for the verdict and the violations. Held against superstruct itself on generated
// values for every schema of the contract (quickCheck.test.ts).
import type { Struct } from 'superstruct';

type Check = (value: unknown) => boolean;
const CTX = Object.freeze({ path: [] as (string | number)[], branch: [] as unknown[], mask: false });

/**
 * The predicates of leaf structs, by their `schema` object (which superstruct's `optional`, `nullable` and `coerce`
 * copy into the structs they make from one): `primitives.ts` registers each bounded leaf's check here.
 */
const leafPredicates = new WeakMap<object, Check>();
export function registerLeaf(schema: object, predicate: Check): void {
  leafPredicates.set(schema, predicate);
}

/**
 * Object structs checked whole by a predicate made for them (a hot message part: contract/edge.ts EdgeEventPart), by
 * their `schema` object (kept by `optional` and `nullable`): in place of a check per key, the predicate answers for the
 * keys (none unknown) and their values; the struct's own coercer, validator and refiner are still asked for the object.
 * The predicate is made on first use (it may ask quickCheck for its leaves).
 */
const objectPredicates = new WeakMap<object, () => Check>();
export function registerObject(schema: object, make: () => Check): void {
  objectPredicates.set(schema, make);
}

/** Whether an iterable of failures (what a struct's validator and refiner return) is empty. */
function none(failures: Iterable<unknown>): boolean {
  for (const _ of failures) return false;
  return true;
}

/** The same keys with the same values (an object's coercer copies it; a copy that differs was coerced). */
function sameShallow(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!(k in b) || !Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/** The struct's answer through its own functions (generators): any struct. */
function general(struct: Struct<any, any>): Check {
  return (value) => {
    if (!sameShallow(struct.coercer(value, CTX), value)) return false;
    if (!none(struct.validator(value, CTX))) return false;
    for (const [, child, childStruct] of struct.entries(value, CTX)) if (!compile(childStruct as Struct<any, any>)(child)) return false;
    return none(struct.refiner(value, CTX));
  };
}

/**
 * A leaf with a known predicate in place of its validator: the struct itself is asked once whether it takes
 * `undefined` and `null` (what `optional` and `nullable` add), every other value goes to the predicate; its coercer
 * must leave the value as it is and its refiner (a `refine`, `size` or `pattern` made from it) must pass it.
 */
function leaf(struct: Struct<any, any>, predicate: Check): Check {
  const takesUndefined = none(struct.validator(undefined, CTX)) && none(struct.refiner(undefined, CTX));
  const takesNull = none(struct.validator(null, CTX)) && none(struct.refiner(null, CTX));
  return (value) => {
    if (struct.coercer(value, CTX) !== value) return false;
    if (value === undefined) return takesUndefined;
    if (value === null) return takesNull;
    return predicate(value) && none(struct.refiner(value, CTX));
  };
}

/**
 * superstruct's `object`: its validator and refiner asked once for the object, each known key's value checked by its
 * own struct, and any key the schema does not name refused (what its entries yield: the known keys, then the unknown
 * ones against `never`).
 */
function objectOf(struct: Struct<any, any>, schema: Record<string, Struct<any, any>>): Check {
  const keys = Object.keys(schema);
  const known = new Set(keys);
  const checks = keys.map((k) => compile(schema[k]));
  // `optional(object(…))` and `nullable(object(…))` keep the object's type and schema: undefined and null are theirs
  // to take or refuse, as a leaf's are (an optional object left out threw here, and a device message with no `edge`
  // part was sent the slow way)
  const takesUndefined = none(struct.validator(undefined, CTX)) && none(struct.refiner(undefined, CTX));
  const takesNull = none(struct.validator(null, CTX)) && none(struct.refiner(null, CTX));
  return (value) => {
    if (value === undefined) return takesUndefined;
    if (value === null) return takesNull;
    if (!sameShallow(struct.coercer(value, CTX), value)) return false;
    if (!none(struct.validator(value, CTX))) return false;
    const object = value as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) if (!checks[i](object[keys[i]])) return false;
    for (const k of Object.keys(object)) if (!known.has(k)) return false;
    return none(struct.refiner(value, CTX));
  };
}

/** An object struct with a predicate of its own (registerObject): undefined and null as objectOf takes them. */
function wholeObject(struct: Struct<any, any>, make: () => Check): Check {
  const takesUndefined = none(struct.validator(undefined, CTX)) && none(struct.refiner(undefined, CTX));
  const takesNull = none(struct.validator(null, CTX)) && none(struct.refiner(null, CTX));
  let predicate: Check | null = null;
  return (value) => {
    if (value === undefined) return takesUndefined;
    if (value === null) return takesNull;
    if (!sameShallow(struct.coercer(value, CTX), value)) return false;
    if (!none(struct.validator(value, CTX))) return false;
    return (predicate ??= make())(value) && none(struct.refiner(value, CTX));
  };
}

const compiled = new WeakMap<Struct<any, any>, Check>();
const guarded = new WeakMap<Struct<any, any>, Check>();

/**
 * The quick check of `struct` (made once per struct and kept). A value superstruct itself cannot describe (its failure
 * message throws, as for an object whose `toString` is not a function) answers false: `validate` then says why.
 */
export function quickCheck(struct: Struct<any, any>): Check {
  let check = guarded.get(struct);
  if (!check) {
    const inner = compile(struct);
    check = (value) => {
      try {
        return inner(value);
      } catch {
        return false;
      }
    };
    guarded.set(struct, check);
  }
  return check;
}

function compile(struct: Struct<any, any>): Check {
  const known = compiled.get(struct);
  if (known) return known;
  const schema = struct.schema as unknown;
  const predicate = schema !== null && typeof schema === 'object' ? leafPredicates.get(schema) : undefined;
  let check: Check;
  if (predicate) check = leaf(struct, predicate);
  else if (struct.type === 'enums' && schema !== null && typeof schema === 'object') {
    const values = new Set(Object.values(schema));
    check = leaf(struct, (v) => values.has(v));
  } else if (struct.type === 'object' && schema !== null && typeof schema === 'object' && objectPredicates.has(schema))
    check = wholeObject(struct, objectPredicates.get(schema)!);
  else if (struct.type === 'object' && schema !== null && typeof schema === 'object') check = objectOf(struct, schema as Record<string, Struct<any, any>>);
  else check = general(struct);
  compiled.set(struct, check);
  return check;
}
