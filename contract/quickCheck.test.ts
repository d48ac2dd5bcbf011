// The quick check answers true exactly when superstruct accepts a value and `create` returns it unchanged: held
// against superstruct itself, on the device message (the hot path that uses it) and on every schema the contract
// exports, with values drawn from each schema's own shape (so many are valid) and values of any shape.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Struct, create, nullable, object, optional, refine, size, string, type } from 'superstruct';
import { isDeepStrictEqual } from 'node:util';
import * as contract from './index';
import { DeviceEvent } from './ingest';
import { EdgeEventPart } from './edge';
import { quickCheck } from './quickCheck';
import * as made from './structs';
import { requiredText, safeText } from './primitives';

/** superstruct's verdict: accepted as it is (create returns an equal value). */
function accepted(struct: Struct<any, any>, value: unknown): boolean {
  try {
    return isDeepStrictEqual(create(value, struct), value);
  } catch {
    return false;
  }
}

// leaves that test the edges: control characters, lone surrogates, lengths, blanks, numbers at int32 bounds, types
const leafValue = fc.oneof(
  fc.constantFrom(undefined, null, '', ' ', 'a', 'door-1', 'x'.repeat(64), 'x'.repeat(65), 'a\u0000b', 'a\uD800', 'a\tb', '  padded  '),
  fc.constantFrom(0, 1, -1, 1.5, 2147483647, 2147483648, -2147483649, Number.NaN, Infinity, 5000, 4002, 1e308),
  fc.constantFrom(true, false, [], {}, [1], '2026-11-28', '2026-02-30', 'Europe/Zurich', 'Mars/Base', 'a@b.co', 'not an email'),
  fc.string({ maxLength: 8 }),
  fc.integer(),
);

/** Values shaped like `struct`: its keys with values of its leaves' kinds (often valid), sometimes an extra key. */
function shaped(struct: Struct<any, any>, depth = 0): fc.Arbitrary<unknown> {
  const schema = struct.schema as unknown;
  if (depth < 3 && (struct.type === 'object' || struct.type === 'type') && schema && typeof schema === 'object') {
    const keys = Object.keys(schema);
    return fc
      .tuple(
        fc.tuple(...keys.map((k) => fc.option(fc.oneof(shaped((schema as Record<string, Struct<any, any>>)[k], depth + 1), leafValue), { nil: undefined }))),
        fc.option(fc.constantFrom('extra', 'constructor'), { nil: undefined }),
        fc.boolean(),
      )
      .map(([values, extra, dropUndefined]) => {
        const out: Record<string, unknown> = {};
        keys.forEach((k, i) => {
          if (values[i] !== undefined || !dropUndefined) out[k] = values[i];
        });
        if (extra) out[extra] = 1;
        return out;
      });
  }
  if (struct.type === 'enums' && schema && typeof schema === 'object') return fc.oneof(fc.constantFrom(...Object.values(schema)), leafValue);
  if (struct.type === 'array' && schema instanceof Struct && depth < 3) return fc.array(shaped(schema, depth + 1), { maxLength: 3 });
  return leafValue;
}

const same = (struct: Struct<any, any>, value: unknown, name = struct.type) =>
  expect(quickCheck(struct)(value), `${name}: ${JSON.stringify(value) ?? String(value)}`).toBe(accepted(struct, value));

describe('quickCheck', () => {
  it('accepts a device message as it is, and refuses what superstruct refuses, on the message’s own shape', () => {
    const good = { controllerId: 3, eventCode: 5000, sourceId: 'reader-1', pointId: 'door-1', message: 'Access granted' };
    expect(quickCheck(DeviceEvent)(good)).toBe(true);
    expect(quickCheck(DeviceEvent)({ ...good, sourceName: null, pointName: 'Front' })).toBe(true);
    expect(quickCheck(DeviceEvent)({ ...good, extra: 1 })).toBe(false);
    expect(quickCheck(DeviceEvent)({ ...good, sourceId: 'a\u0000' })).toBe(false);
    expect(quickCheck(DeviceEvent)({ ...good, eventCode: 1 })).toBe(false);
    fc.assert(
      fc.property(shaped(DeviceEvent), (v) => {
        same(DeviceEvent, v);
      }),
      { numRuns: 3000 },
    );
  });

  it('checks an edge part as superstruct does: every key of a good one changed in turn', () => {
    const step = { check: 'credential', ok: false, detail: 'no credential numbered 91' };
    const decided = {
      identityId: null,
      decision: 'denied',
      reason: 'unknown-credential',
      card: '91',
      doorId: 4,
      side: 'entry',
      steps: [step],
      snapshotBuiltAt: 0,
    };
    const good = { seq: 1, occurredAt: 1_700_000_000_000, offline: true, snapshotVersion: 0, clearedAt: 0, decided };
    const message = { controllerId: 3, eventCode: 5002, sourceId: 'reader-1', message: 'Unknown card', edge: good };
    expect(quickCheck(EdgeEventPart)(good)).toBe(true);
    expect(quickCheck(DeviceEvent)(message)).toBe(true);
    // the bounds, by hand: each must be refused as superstruct refuses it
    const holes: unknown[] = new Array(1);
    for (const v of [
      { ...good, seq: 0 },
      { ...good, seq: 1.5 },
      { ...good, occurredAt: -1 },
      { ...good, snapshotVersion: -1 },
      { ...good, clearedAt: -1 },
      { ...good, offline: 1 },
      { ...good, decided: { ...decided, snapshotBuiltAt: -1 } },
      { ...good, decided: { ...decided, identityId: 0 } },
      { ...good, decided: { ...decided, steps: Array.from({ length: 17 }, () => step) } },
      { ...good, decided: { ...decided, steps: holes } },
      { ...good, decided: { ...decided, steps: [{ ...step, extra: 1 }] } },
      { ...good, decided: { ...decided, extra: 1 } },
      { ...good, extra: 1 },
    ]) {
      same(EdgeEventPart, v, 'EdgeEventPart');
      expect(quickCheck(EdgeEventPart)(v)).toBe(false);
    }
    // each key of the part, of its decided swipe and of a step replaced by a value of any kind, or left out
    const keyed = (o: Record<string, unknown>) => fc.tuple(fc.constantFrom(...Object.keys(o)), fc.oneof(leafValue, fc.constant(undefined), fc.anything()));
    fc.assert(
      fc.property(keyed(good), keyed(decided), keyed(step), fc.integer({ min: 0, max: 2 }), ([k, v], [dk, dv], [sk, sv], where) => {
        const part =
          where === 0
            ? { ...good, [k]: v }
            : where === 1
              ? { ...good, decided: { ...decided, [dk]: dv } }
              : { ...good, decided: { ...decided, steps: [step, { ...step, [sk]: sv }] } };
        same(EdgeEventPart, part, 'EdgeEventPart');
        same(DeviceEvent, { ...message, edge: part });
      }),
      { numRuns: 2000 },
    );
  });

  it('takes an optional object left out, and a nullable one given null, as superstruct does (a device message without its edge part)', () => {
    const inner = object({ b: string() });
    const outer = object({ a: optional(inner), c: nullable(inner) });
    for (const v of [{ c: null }, { a: { b: 'x' }, c: { b: 'y' } }, { a: undefined, c: null }, { a: null, c: null }, { c: undefined }, {}]) same(outer, v);
    expect(quickCheck(outer)({ c: null })).toBe(true);
    expect(quickCheck(outer)({ a: null, c: null })).toBe(false);
  });

  it('answers as superstruct does for every schema of the contract', () => {
    const structs = Object.entries(contract).filter((e): e is [string, Struct<any, any>] => e[1] instanceof Struct);
    expect(structs.length).toBeGreaterThan(50);
    for (const [name, struct] of structs) {
      fc.assert(
        fc.property(fc.oneof(shaped(struct), fc.anything()), (v) => {
          same(struct, v, name);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('never takes a value a coercer or a refinement would change or refuse', () => {
    const trimmed = object({ name: safeText(20, { trim: true }) });
    expect(quickCheck(trimmed)({ name: 'a' })).toBe(true);
    expect(quickCheck(trimmed)({ name: ' a ' })).toBe(false); // create would trim it: not "as it is"
    const refined = object({ code: refine(requiredText(10), 'noX', (v) => !v.includes('x')) });
    expect(quickCheck(refined)({ code: 'abc' })).toBe(true);
    expect(quickCheck(refined)({ code: 'axc' })).toBe(false);
    const sized = object({ tags: optional(nullable(size(string(), 2, 3))) });
    for (const v of [{}, { tags: null }, { tags: 'ab' }, { tags: 'a' }, { tags: 'abcd' }]) same(sized, v);
    const loose = type({ a: optional(requiredText(3)) });
    for (const v of [{}, { a: 'x' }, { a: 'x', b: 1 }, { a: '' }]) same(loose, v);
  });

  it('compiles the structs contract/structs.ts made into plain predicates that answer as superstruct does, each kind', () => {
    const { array, boolean, coerce, define, enums, integer, literal, nullable, number, object, optional, pattern, record, refine, size, string, type, union } =
      made;
    const trimmed = coerce(string(), string(), (v) => v.trim());
    const kinds: [string, Struct<any, any>][] = [
      ['string', string()],
      ['boolean', boolean()],
      ['number', number()],
      ['integer', integer()],
      ['literal', literal('on')],
      ['enums', enums(['a', 'b'])],
      ['define', define<string>('even', (v) => (typeof v === 'number' && v % 2 === 0) || 'odd')],
      ['optional nullable', optional(nullable(integer()))],
      ['object', object({ a: optional(string()), b: nullable(safeText(3)) })],
      ['type', type({ a: optional(requiredText(3)) })],
      ['array', array(integer())],
      ['array of anything', array()],
      ['record', record(safeText(3), union([safeText(3), integer()]))],
      ['union', union([literal('x'), integer(), object({ a: string() })])],
      // a member that coerces: the union gives its first member's coerced value, so the value is not taken as it is
      ['union with a coercing member', union([trimmed, safeText(5)])],
      ['size of a list', size(array(string()), 1, 2)],
      ['size of text and a number', union([size(string(), 2, 3), size(number(), 0, 9)])],
      ['pattern', pattern(string(), /^[a-z]+\.[a-z]+$/)],
      ['refine', refine(safeText(10), 'noX', (v) => !v.includes('x') || 'has an x')],
      ['refine yielding', refine(array(integer()), 'sorted', (v) => v.map((n, i) => i === 0 || v[i - 1] <= n || 'unsorted'))],
    ];
    const edges = [' x ', 'ab.cd', 'ab', 'abcd', [3, 1], [1, 3], [], ['a', 'b', 'c'], { a: 'x' }, { a: 1 }, { b: null }, { b: 'abcd' }, { q: 1 }, 'on', 4, 5];
    for (const [name, struct] of kinds) {
      for (const v of edges) same(struct, v, name);
      fc.assert(
        fc.property(fc.oneof(shaped(struct), leafValue, fc.anything()), (v) => {
          same(struct, v, name);
        }),
        { numRuns: 300 },
      );
    }
    // the kinds do not lean on superstruct's own functions for a value: a made object is answered without its coercer
    const plain = object({ a: integer() });
    const spy = Object.assign(Object.create(Object.getPrototypeOf(plain)), plain, { coercer: () => ({ changed: true }) });
    expect(quickCheck(plain)({ a: 1 })).toBe(true);
    expect(quickCheck(spy)({ a: 1 })).toBe(false); // not made here: its own (odd) coercer is asked and changes the value
  });
});
