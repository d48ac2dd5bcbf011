// The device message's quick check (contract/quickCheck.ts), compiled by hand for the device interface's hot path
// (issue 47: an edge's resync sends 100,000 messages; the generic walk asked each key's struct its coercer, validator
// and refiner, and copied the object to compare it, about 6 µs a message of the server's processor beside the edge
// part's own). The keys, integers and the text leaves are checked here by the primitives' own predicates (textProblem,
// the same as requiredText's validator), a sentence's values by edge.ts's; the edge part through its quick check; anything
// else answers false and superstruct gives the verdict and the violations, as before. Registered when this module is
// loaded (server/edge/ingest.ts imports it); held against superstruct by edgeDevice.test.ts.
import type { Struct } from 'superstruct';
import { DECISION_CHECKS, EDGE_MS_MAX, EdgeEventPart, sentenceValuesCheck } from './edge';
import { DECISION_REASONS } from './decision';
import { DeviceEvent } from './ingest';
import { SENTENCE_KEY } from './messages';
import { EVENT_CODES } from './monitor';
import { INT32_MAX, textProblem } from './primitives';
import { quickCheck, registerObject } from './quickCheck';

type Check = (v: unknown) => boolean;

/** requiredText(max)'s validator as a predicate: text, not blank, at most `max`, no control characters. */
const required =
  (max: number): Check =>
  (v) =>
    typeof v === 'string' && v.trim().length !== 0 && textProblem(v, max) === undefined;

/** The device message's predicate: every key known, each value as its struct takes it. */
export function deviceEventCheck(): Check {
  const schema = DeviceEvent.schema as unknown as Record<string, Struct<any, any>>;
  const codes = new Set<unknown>(Object.values(EVENT_CODES));
  const source = required(64);
  const name = required(200);
  const message = required(500);
  const edge = quickCheck(schema.edge);
  const known = new Set(Object.keys(schema));
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    for (const k in o) if (!known.has(k)) return false;
    const c = o.controllerId;
    if (typeof c !== 'number' || !Number.isInteger(c) || c < 1 || c > INT32_MAX) return false;
    if (!codes.has(o.eventCode) || !source(o.sourceId)) return false;
    if (o.sourceName !== undefined && o.sourceName !== null && !name(o.sourceName)) return false;
    if (o.pointId !== undefined && !source(o.pointId)) return false;
    if (o.pointName !== undefined && o.pointName !== null && !name(o.pointName)) return false;
    if (o.message !== undefined && !message(o.message)) return false;
    if (o.messageCode !== undefined && !(typeof o.messageCode === 'string' && SENTENCE_KEY.test(o.messageCode))) return false;
    if (o.messageValues !== undefined && !sentenceValuesCheck(o.messageValues)) return false;
    return o.edge === undefined || edge(o.edge);
  };
}

registerObject(DeviceEvent.schema, deviceEventCheck);

// The edge part's quick check (contract/quickCheck.ts), compiled by hand: a resync sends 100,000 of them, and the
// generic walk asked superstruct a generator per key and per refinement (29 µs a message with a decided swipe, against
// 1 µs for the device message's other keys). The keys, the arrays, the integers and booleans are checked here, the
// text, id and enum leaves and a step's sentence by the same predicates their structs use (textProblem, the enum's
// values, SENTENCE_KEY; a leaf's generic quick check asked its coercer and refiner each time); anything else answers false (superstruct then gives the
// verdict). Held against superstruct by quickCheck.test.ts, as every schema of the contract is: a change of the schema
// (contract/edge.ts) that this does not follow fails it.
registerObject(EdgeEventPart.schema, () => {
  type Check = (v: unknown) => boolean;
  const intFrom =
    (least: number, optional = false, most = Number.MAX_SAFE_INTEGER): Check =>
    (v) =>
      (optional && v === undefined) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= least && v <= most);
  const bool: Check = (v) => typeof v === 'boolean';
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  /** every key of `v` known and each known key's value taken */
  const objectOf = (checks: Record<string, Check>): Check => {
    const entries = Object.entries(checks);
    return (v) => {
      if (!isObject(v)) return false;
      for (const k of Object.keys(v)) if (!Object.hasOwn(checks, k)) return false;
      for (const [k, ok] of entries) if (!ok(v[k])) return false;
      return true;
    };
  };
  // the leaves by the primitives' own predicates (a leaf's generic check asks its coercer and refiner each time)
  const text =
    (max: number): Check =>
    (v) =>
      typeof v === 'string' && textProblem(v, max) === undefined;
  const oneOf = (values: readonly unknown[]): Check => {
    const set = new Set(values);
    return (v) => set.has(v);
  };
  const rowId: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= INT32_MAX;
  const step = objectOf({
    check: oneOf(DECISION_CHECKS),
    ok: bool,
    detail: text(300),
    code: (v) => v === undefined || (typeof v === 'string' && SENTENCE_KEY.test(v)),
    values: (v) => v === undefined || sentenceValuesCheck(v),
  });
  const steps: Check = (v) => {
    if (v === undefined) return true;
    if (!Array.isArray(v) || v.length > 16) return false;
    for (let i = 0; i < v.length; i++) if (!step(v[i])) return false; // a hole is undefined, as superstruct reads it
    return true;
  };
  const decided = objectOf({
    identityId: (v) => v === null || rowId(v),
    decision: oneOf(['granted', 'denied']),
    reason: oneOf(DECISION_REASONS),
    card: text(64),
    doorId: rowId,
    side: oneOf(['entry', 'exit']),
    steps,
    snapshotBuiltAt: intFrom(0, true, EDGE_MS_MAX),
  });
  return objectOf({
    seq: intFrom(1),
    occurredAt: intFrom(0, false, EDGE_MS_MAX),
    offline: bool,
    snapshotVersion: intFrom(0),
    clearedAt: intFrom(0, true, EDGE_MS_MAX),
    live: (v) => v === undefined || bool(v),
    decided: (v) => v === undefined || decided(v),
  });
});
