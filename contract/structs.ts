// superstruct, as the contract builds its schemas with it: every constructor and helper is superstruct's own, and the
// ones below also say how they made their struct (contract/quickCheck.ts registerMade), so the hot paths' quick check
// compiles a schema into plain predicates (an object's keys, an optional's undefined, an enum's values, a size's
// bounds) without asking superstruct's generators for each value and each wrapper. A struct made any other way
// (`coerce`, `defaulted`, superstruct imported directly) is still checked, by asking its own functions. Contract
// files import superstruct from here (eslint.config.js).
import * as ss from 'superstruct';
import { passes, registerMade } from './quickCheck';

export * from 'superstruct';

type AnyStruct = ss.Struct<any, any>;
const CTX = Object.freeze({ path: [] as (string | number)[], branch: [] as unknown[], mask: false });

export const string: typeof ss.string = () => registerMade(ss.string(), { kind: 'test', test: (v) => typeof v === 'string' });
export const boolean: typeof ss.boolean = () => registerMade(ss.boolean(), { kind: 'test', test: (v) => typeof v === 'boolean' });
export const number: typeof ss.number = () => registerMade(ss.number(), { kind: 'test', test: (v) => typeof v === 'number' && !Number.isNaN(v) });
export const integer: typeof ss.integer = () =>
  registerMade(ss.integer(), { kind: 'test', test: (v) => typeof v === 'number' && !Number.isNaN(v) && Number.isInteger(v) });
export const literal = ((constant: unknown) => registerMade(ss.literal(constant as any), { kind: 'test', test: (v) => v === constant })) as typeof ss.literal;
export const enums = ((values: readonly unknown[]) => {
  const set = new Set(values);
  return registerMade(ss.enums(values as any), { kind: 'test', test: (v) => set.has(v) });
}) as typeof ss.enums;
export const define = ((name: string, validator: (v: unknown, ctx: any) => unknown) =>
  registerMade(ss.define(name, validator as any), { kind: 'test', test: (v) => passes(validator(v, CTX)) })) as typeof ss.define;

export const optional = ((struct: AnyStruct) => registerMade(ss.optional(struct), { kind: 'optional', inner: struct })) as typeof ss.optional;
export const nullable = ((struct: AnyStruct) => registerMade(ss.nullable(struct), { kind: 'nullable', inner: struct })) as typeof ss.nullable;
export const object = ((schema?: Record<string, AnyStruct>) =>
  schema ? registerMade(ss.object(schema), { kind: 'object', schema }) : ss.object()) as typeof ss.object;
export const type = ((schema: Record<string, AnyStruct>) => registerMade(ss.type(schema), { kind: 'type', schema })) as typeof ss.type;
export const array = ((element?: AnyStruct) => registerMade(element ? ss.array(element) : ss.array(), { kind: 'array', element })) as typeof ss.array;
export const record = ((key: AnyStruct, value: AnyStruct) => registerMade(ss.record(key, value), { kind: 'record', key, value })) as typeof ss.record;
export const union = ((members: AnyStruct[]) => registerMade(ss.union(members as any), { kind: 'union', members })) as typeof ss.union;
export const size = ((struct: AnyStruct, min: number, max = min) =>
  registerMade(ss.size(struct, min, max), { kind: 'size', inner: struct, min, max })) as typeof ss.size;
export const pattern = ((struct: AnyStruct, regexp: RegExp) =>
  registerMade(ss.pattern(struct, regexp), { kind: 'pattern', inner: struct, regexp })) as typeof ss.pattern;
export const refine = ((struct: AnyStruct, name: string, refiner: (v: any, ctx: any) => unknown) =>
  registerMade(ss.refine(struct, name, refiner as any), { kind: 'refine', inner: struct, refiner })) as typeof ss.refine;
