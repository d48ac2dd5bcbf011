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
 * How a struct was made, said by the constructor that made it (contract/structs.ts, the contract's superstruct; a
 * bounded leaf of primitives.ts): the struct itself, not its `schema` (which `refine`, `optional` and `coerce` copy into
 * the structs they make from it), so a struct wrapped any other way is never taken for what it wraps. A made struct
 * compiles into plain predicates: no generator, path or copy per value and per wrapper.
 */
export type Made =
  /** its whole answer is the test (string(), boolean(), an enum, a literal, a bounded leaf, a define) */
  | { kind: 'test'; test: Check }
  | { kind: 'optional' | 'nullable'; inner: Struct<any, any> }
  | { kind: 'object' | 'type'; schema: Record<string, Struct<any, any>> }
  | { kind: 'array'; element: Struct<any, any> | undefined }
  | { kind: 'record'; key: Struct<any, any>; value: Struct<any, any> }
  | { kind: 'union'; members: Struct<any, any>[] }
  | { kind: 'size'; inner: Struct<any, any>; min: number; max: number }
  | { kind: 'pattern'; inner: Struct<any, any>; regexp: RegExp }
  | { kind: 'refine'; inner: Struct<any, any>; refiner: (value: any, ctx: any) => unknown };
const made = new WeakMap<Struct<any, any>, Made>();
export function registerMade<S extends Struct<any, any>>(struct: S, how: Made): S {
  made.set(struct, how);
  return struct;
}

/** What a validator or refinement returned, read as superstruct reads it: true, or an iterable of nothing but true. */
export function passes(result: unknown): boolean {
  if (result === true) return true;
  if (typeof result !== 'object' || result === null || !(Symbol.iterator in result)) return false;
  for (const r of result as Iterable<unknown>) if (r !== true) return false;
  return true;
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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a struct and all it holds coerce nothing (each made by a constructor that says so): a union of such members
 * takes a value unchanged when any member takes it (superstruct's union coerces by its first member that validates).
 */
const pureKnown = new WeakMap<Struct<any, any>, boolean>();
function pure(struct: Struct<any, any>): boolean {
  const known = pureKnown.get(struct);
  if (known !== undefined) return known;
  const how = made.get(struct);
  let answer = false;
  if (how) {
    pureKnown.set(struct, false); // a schema that holds itself (lazy) is not one of these
    switch (how.kind) {
      case 'test':
        answer = true;
        break;
      case 'object':
      case 'type':
        answer = Object.values(how.schema).every(pure);
        break;
      case 'array':
        answer = !how.element || pure(how.element);
        break;
      case 'record':
        answer = pure(how.key) && pure(how.value);
        break;
      case 'union':
        answer = how.members.every(pure);
        break;
      default:
        answer = pure(how.inner);
    }
  }
  pureKnown.set(struct, answer);
  return answer;
}

/** A made struct's predicate (see Made): what superstruct's `run` asks of it, as plain code. */
function compileMade(struct: Struct<any, any>, how: Made): Check {
  switch (how.kind) {
    case 'test':
      return how.test;
    case 'optional': {
      const inner = compile(how.inner);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = compile(how.inner);
      return (v) => v === null || inner(v);
    }
    case 'object':
    case 'type': {
      const keys = Object.keys(how.schema);
      const checks = keys.map((k) => compile(how.schema[k]));
      const closed = how.kind === 'object';
      const known = new Set(keys);
      return (v) => {
        if (!isRecord(v)) return false;
        for (let i = 0; i < keys.length; i++) if (!checks[i](v[keys[i]])) return false;
        if (closed) for (const k of Object.keys(v)) if (!known.has(k)) return false;
        return true;
      };
    }
    case 'array': {
      if (!how.element) return Array.isArray;
      const element = compile(how.element);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false; // a hole is undefined, as superstruct reads it
        return true;
      };
    }
    case 'record': {
      const key = compile(how.key);
      const value = compile(how.value);
      return (v) => {
        if (!isRecord(v)) return false;
        for (const k in v) if (!key(k) || !value(v[k])) return false;
        return true;
      };
    }
    case 'union': {
      if (!pure(struct)) return general(struct);
      const members = how.members.map(compile);
      return (v) => {
        for (const m of members) if (m(v)) return true;
        return false;
      };
    }
    case 'size': {
      const inner = compile(how.inner);
      const { min, max } = how;
      return (v) => {
        if (!inner(v)) return false;
        const n = typeof v === 'number' || v instanceof Date ? +v : v instanceof Map || v instanceof Set ? v.size : (v as { length: number }).length;
        return min <= n && n <= max;
      };
    }
    case 'pattern': {
      const inner = compile(how.inner);
      const { regexp } = how;
      return (v) => inner(v) && regexp.test(v as string);
    }
    case 'refine': {
      const inner = compile(how.inner);
      const { refiner } = how;
      return (v) => inner(v) && passes(refiner(v, CTX));
    }
  }
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
  const how = made.get(struct);
  if (how) {
    // kept before it is made: a schema that holds itself finds its own check
    let inner: Check | null = null;
    compiled.set(struct, (v) => inner!(v));
    inner = compileMade(struct, how);
    compiled.set(struct, inner);
    return inner;
  }
  const schema = struct.schema as unknown;
  const predicate = schema !== null && typeof schema === 'object' ? leafPredicates.get(schema) : undefined;
  let check: Check;
  if (predicate) check = leaf(struct, predicate);
  else if (struct.type === 'enums' && schema !== null && typeof schema === 'object') {
    const values = new Set(Object.values(schema));
    check = leaf(struct, (v) => values.has(v));
  } else if (struct.type === 'object' && schema !== null && typeof schema === 'object') check = objectOf(struct, schema as Record<string, Struct<any, any>>);
  else check = general(struct);
  compiled.set(struct, check);
  return check;
}
