// The device message's quick check (contract/quickCheck.ts), compiled by hand for the device interface's hot path
// (issue 47: an edge's resync sends 100,000 messages; the generic walk asked each key's struct its coercer, validator
// and refiner, and copied the object to compare it, about 6 µs a message of the server's processor beside the edge
// part's own). The keys, integers and the text leaves are checked here by the primitives' own predicates (textProblem,
// the same as requiredText's validator), a sentence's values by edge.ts's; the edge part through its quick check; anything
// else answers false and superstruct gives the verdict and the violations, as before. Registered when this module is
// loaded (server/edge/ingest.ts imports it); held against superstruct by edgeDevice.test.ts.
import type { Struct } from 'superstruct';
import { sentenceValuesCheck } from './edge';
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
