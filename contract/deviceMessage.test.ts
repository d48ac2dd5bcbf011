// The device message's quick check (quickCheck.ts, compiled from the schema as contract/structs.ts made it: the device
// interface's hot path, issue 47) answers true exactly when superstruct accepts the message as it is: held against
// superstruct itself on messages shaped like the device interface's (an edge's journal among them), their keys left
// out, extra, or holding the values that test each leaf's edges.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { create } from 'superstruct';
import { isDeepStrictEqual } from 'node:util';
import { DeviceEvent } from './ingest';
import { quickCheck } from './quickCheck';

const accepted = (value: unknown): boolean => {
  try {
    return isDeepStrictEqual(create(value, DeviceEvent), value);
  } catch {
    return false;
  }
};

const odd = fc.constantFrom<unknown>(undefined, null, '', ' ', 'a\u0000b', 'a\uD800', 1.5, -1, 0, 2147483648, true, [], {}, 'x'.repeat(65), 'x'.repeat(201));
const text = (max: number) => fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constant('x'.repeat(max)), fc.constant('x'.repeat(max + 1)), odd);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const step = fc.record(
  { check: fc.constantFrom<unknown>('credential', 'schedule', 'nope'), ok: fc.oneof(fc.boolean(), odd), detail: text(300) },
  { requiredKeys: ['check', 'ok', 'detail'] },
);
const decided = fc.record({
  identityId: fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 10 }), odd),
  decision: fc.constantFrom<unknown>('granted', 'denied', 'maybe'),
  reason: fc.constantFrom<unknown>('granted', 'unknown-credential', 'because'),
  card: text(64),
  doorId: fc.oneof(fc.integer({ min: 1, max: 10 }), odd),
  side: fc.constantFrom<unknown>('entry', 'exit', 'up'),
  steps: maybe(fc.oneof(fc.array(step, { maxLength: 3 }), odd)),
  snapshotBuiltAt: maybe(fc.oneof(fc.integer({ min: 0 }), odd)),
});
const edge = fc.record(
  {
    seq: fc.oneof(fc.integer({ min: 1, max: 1e6 }), odd),
    occurredAt: fc.oneof(fc.integer({ min: 0 }), odd),
    offline: fc.oneof(fc.boolean(), odd),
    snapshotVersion: fc.oneof(fc.integer({ min: 0, max: 9 }), odd),
    clearedAt: fc.oneof(fc.integer({ min: 0 }), odd),
    live: fc.oneof(fc.boolean(), odd),
    decided: fc.oneof(decided, odd),
  },
  { requiredKeys: ['seq', 'occurredAt', 'offline', 'snapshotVersion'] },
);
const message = fc
  .tuple(
    fc.record(
      {
        controllerId: fc.oneof(fc.integer({ min: 1, max: 10 }), odd),
        eventCode: fc.constantFrom<unknown>(2000, 5000, 4003, 6003, 1, '2000'),
        sourceId: text(64),
        sourceName: fc.oneof(text(200), fc.constant(null)),
        pointId: text(64),
        pointName: fc.oneof(text(200), fc.constant(null)),
        message: text(500),
        messageCode: fc.constantFrom<unknown>('event.swipeCard', 'Event.x', 'single', 3),
        messageValues: fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), odd), { maxKeys: 3 }), odd),
        edge: fc.oneof(edge, odd),
      },
      { requiredKeys: ['controllerId', 'eventCode', 'sourceId'] },
    ),
    fc.option(fc.constantFrom('extra', 'constructor', '__proto__'), { nil: undefined }),
  )
  // as the device interface has them: parsed from JSON (plain objects, never without a prototype; no key left undefined)
  .map(([m, extra]) => JSON.parse(JSON.stringify(extra ? { ...m, [extra]: 1 } : m)) as unknown);

describe('the device message’s compiled quick check', () => {
  it('answers as superstruct does, on messages of every shape the device interface is sent', () => {
    const check = quickCheck(DeviceEvent);
    fc.assert(
      fc.property(message, (m) => {
        expect(check(m), JSON.stringify(m)).toBe(accepted(m));
      }),
      { numRuns: 3000 },
    );
  });

  it('takes an edge’s swipe and refuses one key wrong, as superstruct does', () => {
    const swipe = {
      controllerId: 3,
      eventCode: 2004,
      sourceId: 'reader-7',
      sourceName: 'Lobby reader',
      message: 'Unknown card: card 91 at Lobby',
      messageCode: 'event.swipeCard',
      messageValues: { event: 'Unknown card', who: 'unknown card', card: '91', door: 'Lobby' },
      edge: {
        seq: 12,
        occurredAt: 1_764_800_000_000,
        offline: true,
        snapshotVersion: 4,
        decided: { identityId: null, decision: 'denied', reason: 'unknown-credential', card: '91', doorId: 7, side: 'entry', steps: [] },
      },
    };
    expect(accepted(swipe)).toBe(true);
    expect(quickCheck(DeviceEvent)(swipe)).toBe(true);
    for (const bad of [
      { ...swipe, sourceId: ' ' },
      { ...swipe, controllerId: 0 },
      { ...swipe, pointId: 'x'.repeat(65) },
      { ...swipe, messageCode: 'swipe' },
      { ...swipe, more: 1 },
      { ...swipe, messageValues: [] }, // an array is no record (the property found it one run in three)
      { ...swipe, messageValues: ['Lobby'] },
    ]) {
      expect(accepted(bad)).toBe(false);
      expect(quickCheck(DeviceEvent)(bad)).toBe(false);
    }
  });
});
