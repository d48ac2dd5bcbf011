// The simulator's random traffic (server/simulator/hardware.ts): one random event somewhere among the hardware
// records that exist (issue 12), mostly swipes at a reader.
//
// Issue 50: the demo's traffic reads like a real site's. It raised a P1 "Door forced open" about once a minute (26
// open alarms after 30 minutes, a notice on every screen): now almost every event is a granted swipe, a swipe now and
// then is anyone's card (the odd denial), inputs and outputs change, and an alarm comes now and then (TRAFFIC_MIX: at
// the default rate of one event a second, about one alarm in ten minutes, a forced door about once an hour).
import { EVENT_CODES, type Event } from '../../contract';
import type { Db } from '../db/db';
import { trafficControllers, trafficRecords, type TrafficRecords } from '../db/queries/simulator';
import type { Pipeline } from '../monitor/pipeline';
import { atSource } from '../monitor/events';
import type { Devices } from './devices';
import type { DoorRow } from './hardwareRows';
import type { SwipeOptions } from './swipes';

/**
 * The hardware records the random traffic comes from (issue 12: the simulator simulates exactly what exists): card
 * readers (a swipe happens at a reader, on its side of its door), inputs (`in-<id>`) and outputs (`out-<id>`),
 * doors and controllers. Read once per tick, so a new door, reader or input is live at the next tick.
 */
export type Records = TrafficRecords;

/** What one random event is, and its share of the traffic (cumulative bands over [0, 1), in this order). */
export const TRAFFIC_MIX = [
  ['swipe', 0.9], // a card the engine grants (TRAFFIC_ANY_CARD of them: any card of the tenant, or nobody's)
  ['input', 0.05], // an input idle, active (an armed zone makes it an intrusion), open or unknown
  ['output', 0.045],
  ['held-open', 0.0012], // alarm P3
  ['reader', 0.001], // a reader tampered with (alarm P2), or going offline (P4) or back
  ['input-tamper', 0.0003], // alarm P2
  ['forced-open', 0.0003], // alarm P1
  ['controller', 0.0004], // a controller going offline (P2) or back
  ['reader-back', 0.0018], // a quiet reader comes back (else a swipe)
] as const satisfies readonly (readonly [string, number])[];
export type TrafficKind = (typeof TRAFFIC_MIX)[number][0];
/** The share of random swipes that present any card of the tenant, or nobody's (the rest present one granted here). */
export const TRAFFIC_ANY_CARD = 0.04;
/** Which kind of event a die of `x` in [0, 1) makes. */
export function trafficKind(x: number): TrafficKind {
  let edge = 0;
  for (const [kind, share] of TRAFFIC_MIX) {
    edge += share;
    if (x < edge) return kind;
  }
  return TRAFFIC_MIX[TRAFFIC_MIX.length - 1][0];
}
/** A die that lands in `kind`'s band (tests). */
export function trafficDie(kind: TrafficKind, at = 0.5): number {
  let edge = 0;
  for (const [k, share] of TRAFFIC_MIX) {
    if (k === kind) return edge + share * at;
    edge += share;
  }
  throw new Error(`no traffic kind ${kind}`);
}

export function createTraffic({
  db,
  pipeline,
  random,
  devices,
  swipe,
  doorEvent,
}: {
  db: Db;
  pipeline: Pipeline;
  random: () => number;
  devices: Devices;
  swipe: (d: DoorRow, wantGranted: boolean | null, o?: SwipeOptions) => Promise<Event>;
  doorEvent: (d: DoorRow, code: number) => Promise<Event>;
}) {
  const { quietReaders, readerEvent, interfaceEvent, inputEvent } = devices;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

  /** a Gatehouse Edge controller (one with a key: issue 47) runs its own doors, readers, inputs and outputs: the random traffic never touches them */
  const records = (): Promise<Records> => trafficRecords(db);

  /** One random event somewhere: mostly swipes at a reader, sometimes an input or output, rarely an alarm or a device going off/online. */
  async function randomEvent(r?: Records): Promise<void> {
    const rec = r ?? (await records());
    if (!rec.doors.length) return;
    const byId = new Map(rec.doors.map((d) => [d.id, d]));
    const d = pick(rec.doors);
    const x = random();
    // a card at a reader that is online; a door without a reader takes no swipe
    const swipeAtReader = async () => {
      const live = rec.readers.filter((rd) => !quietReaders.has(rd.door_id) && byId.has(rd.door_id));
      if (live.length) {
        const rd = pick(live);
        await swipe(byId.get(rd.door_id)!, random() < TRAFFIC_ANY_CARD ? null : true, { side: rd.direction });
      }
    };
    const kind = trafficKind(x);
    if (kind === 'swipe') await swipeAtReader();
    else if (kind === 'input') {
      if (rec.inputs.length) {
        const i = pick(rec.inputs);
        const code = pick([EVENT_CODES.inputIdle, EVENT_CODES.inputActive, EVENT_CODES.inputOpen, EVENT_CODES.inputIdle, EVENT_CODES.inputUnknown]);
        // active goes through the input's own path: an armed alarm group makes it an intrusion
        if (code === EVENT_CODES.inputActive) await inputEvent(i.client_id, i.id, true);
        else await pipeline.record(i.client_id, { eventCode: code, sourceId: `in-${i.id}`, sourceName: i.name, ...atSource(code, i.name) });
      }
    } else if (kind === 'output') {
      if (rec.outputs.length) {
        const o = pick(rec.outputs);
        const code = pick([EVENT_CODES.outputIdle, EVENT_CODES.outputActive]);
        await pipeline.record(o.client_id, { eventCode: code, sourceId: `out-${o.id}`, sourceName: o.name, ...atSource(code, o.name) });
      }
    } else if (kind === 'forced-open') await doorEvent(d, EVENT_CODES.doorForcedOpen);
    else if (kind === 'held-open') await doorEvent(d, EVENT_CODES.doorHeldOpen);
    else if (kind === 'reader') {
      // a reader is tampered with, or goes offline or back: only a door that has one
      const withReader = rec.doors.filter((x2) => rec.readers.some((rd) => rd.door_id === x2.id));
      if (withReader.length) {
        const r = pick(withReader);
        await readerEvent(r, random() < 0.3 ? EVENT_CODES.readerTamper : quietReaders.has(r.id) ? EVENT_CODES.readerOnline : EVENT_CODES.readerOffline);
      }
    } else if (kind === 'input-tamper') {
      if (rec.inputs.length) {
        const i = pick(rec.inputs);
        await pipeline.record(i.client_id, {
          eventCode: EVENT_CODES.inputTamper,
          sourceId: `in-${i.id}`,
          sourceName: i.name,
          ...atSource(EVENT_CODES.inputTamper, i.name),
        });
      }
    } else if (kind === 'controller') {
      const rows = await trafficControllers(db, d.client_id);
      if (rows.length) {
        const c = pick(rows);
        await interfaceEvent(c, c.status !== 'online');
      }
    } else if (quietReaders.has(d.id)) await readerEvent(d, EVENT_CODES.readerOnline);
    else await swipeAtReader();
  }

  return { records, randomEvent };
}
