// The hardware simulator: the doors, card readers, inputs, outputs and controllers of every tenant (Configure and
// Hardware records, read afresh every tick) behave like real ones. A swipe happens at a card reader, on its side of
// its door (events `reader-{door}`); inputs are `in-{input}`, outputs `out-{output}`, the strike of a door's commands
// `output-{door}`; each controller has an interface (`iface-{controller}`). Card swipes are decided by the access-decision engine
// (access/engine.ts) over the tenant's access index (server/access/index.ts, kept current on change), with
// the zone state (who is where, which doors are open) kept here in memory; each swipe event stores the identity,
// the decision and its reason. Doors are forced or held open; readers are tampered or go offline; inputs and outputs change state
// with the §4 codes. Every event goes through the pipeline (persisted, then published). Heart-beats: doors on
// /hbdoor, controllers on /hbcontroller. Operators' door commands change the simulated door and produce events.
// It implements the hardware port (server/doors/port.ts) and keeps the doors' live state (server/doors/liveState.ts).
// The parts: hardwareRows.ts (a door, a controller), swipes.ts (swipes and Why?), devices.ts (readers, inputs,
// outputs, controllers, elevators), traffic.ts (the random events), strike.ts (door commands), heartbeat.ts.
import { DESTINATIONS, DOOR_MOMENTARY_MS, DOOR_STATUSES, EVENT_CODES, eventLabel, fill, sentenceValue, type Event, type SimulateKind } from '../../contract';
import { createAccessIndexes, type AccessIndexes } from '../access/index';
import type { Db } from '../db/db';
import * as q from '../db/queries/simulator';
import { createDoorLiveState } from '../doors/liveState';
import { createHeartbeat } from './heartbeat';
import { createStrikes, type DoorEventHow, type SimulatorClock } from './strike';
import { HardwareError, type HardwarePort, type RelockHook } from '../doors/port';
import type { Pipeline, Publish } from '../monitor/pipeline';
import { said } from '../monitor/events';
import { controllerOf, doorOf, type DoorRow } from './hardwareRows';
import { createSwipes, type SwipeOptions } from './swipes';
import { createDevices } from './devices';
import { createTraffic } from './traffic';

export { accessDecision, type SwipeFacts, type SwipeOptions } from './swipes';

export interface SimulatorOptions {
  db: Db;
  pipeline: Pipeline;
  publish: Publish;
  /** Random events per second over all tenants (0: heart-beats only). */
  rate?: number;
  heartbeatMs?: number;
  /** How long a momentary unlock lasts (default DOOR_MOMENTARY_MS). */
  momentaryMs?: number;
  /** Time of the momentary relocks (tests: xstate's SimulatedClock); real timers by default. */
  clock?: SimulatorClock;
  random?: () => number;
  log?: (message: string) => void;
  /** The access indexes the swipes are decided on (one is made over `db` when not given). */
  access?: AccessIndexes;
}

export type { SimulatorClock };
const realClock: SimulatorClock = { now: () => Date.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) };
/** Random events generated at once per tick (see tick()). */
export const SIMULATOR_LANES = 16;

const doorStatusOf: Partial<Record<number, string>> = {
  [EVENT_CODES.doorForcedOpen]: 'forced-open',
  [EVENT_CODES.doorHeldOpen]: 'held-open',
  [EVENT_CODES.doorClosed]: 'closed',
  [EVENT_CODES.doorLocked]: 'locked',
  [EVENT_CODES.doorUnlocked]: 'unlocked',
  [EVENT_CODES.doorMomentaryUnlock]: DOOR_STATUSES.unlockedBriefly,
};

export function createHardwareSimulator(opts: SimulatorOptions) {
  const { db, pipeline, publish } = opts;
  const random = opts.random ?? Math.random;
  const log = opts.log ?? (() => {});
  const rate = Number.isFinite(opts.rate) ? Math.max(0, opts.rate!) : 1;
  const heartbeatMs = opts.heartbeatMs ?? 5000;
  // DOOR_MOMENTARY_MS in the environment: end-to-end tests lengthen it, so a loaded machine never relocks a door
  // before the test has looked (they fast-forward the relocks through the test hook instead)
  const momentaryMs = opts.momentaryMs ?? (Number(process.env.DOOR_MOMENTARY_MS) || DOOR_MOMENTARY_MS);
  let clock = opts.clock ?? realClock;
  let tickTimer: ReturnType<typeof setInterval> | null = null;
  let beatTimer: ReturnType<typeof setInterval> | null = null;
  let carry = 0;
  let stopped = false;
  const access = opts.access ?? createAccessIndexes(db, { log });
  /** per tenant: who is where (anti-passback), which doors stand open (interlocks) */
  const live = createDoorLiveState(db);
  const door = (clientId: number | null, doorId: number) => doorOf(db, clientId, doorId);
  const controller = (clientId: number, controllerId: number | undefined) => controllerOf(db, clientId, controllerId);

  async function setDoorStatus(d: DoorRow, status: string) {
    if (d.status === status) return;
    d.status = status;
    live.doorStatus(d.client_id, d.id, status);
    await q.setDoorStatus(db, d.id, status);
    // heard by the consoles that may see the door's division (issue 10)
    publish(d.client_id, DESTINATIONS.doorHeartbeat, { id: d.id, name: d.name, doorStatus: status }, { division: d.division_id ?? null });
  }

  async function doorEvent(d: DoorRow, code: number, pointId = `door-${d.id}`, how?: DoorEventHow, keepStatus = false): Promise<Event> {
    const event = eventLabel(code);
    // issue 48: the message as a sentence with its key, said in the operator's language by the console
    const message =
      how === 'relocked'
        ? fill('event.atDoorRelocked', '{event} at {door} (relocked)', { event, door: d.name })
        : how?.forced
          ? fill('event.atDoorByForced', '{event} at {door} by {actor} (forced)', { event, door: d.name, ...sentenceValue('actor', how.by) })
          : how
            ? fill('event.atDoorBy', '{event} at {door} by {actor}', { event, door: d.name, ...sentenceValue('actor', how.by) })
            : fill('event.atDoor', '{event} at {door}', { event, door: d.name });
    const e = await pipeline.record(d.client_id, {
      eventCode: code,
      sourceId: `door-${d.id}`,
      sourceName: d.name,
      pointId,
      pointName: d.name,
      ...said(message),
    });
    const status = doorStatusOf[code];
    if (status && !keepStatus) await setDoorStatus(d, status);
    return e;
  }

  /** the doors' strikes: operators' commands in arrival order per door, the momentary relocks (strike.ts) */
  const strikes = createStrikes({ db, momentaryMs, log, clock: () => clock, stopped: () => stopped, door, doorEvent });

  /** swipes at the doors' readers and Why? (swipes.ts) */
  const { swipe, swipeCard, explain } = createSwipes({ db, pipeline, access, live, random });
  /** readers, inputs, outputs, controllers and elevators (devices.ts) */
  const devices = createDevices({ db, pipeline, access, log, clock: () => clock, stopped: () => stopped, door, swipeCard });
  const { readerEvent, ioEvent, interfaceEvent, inputEvent, floorRequest, pulseOutput } = devices;
  /** the random traffic over the records that exist (traffic.ts) */
  const { records, randomEvent } = createTraffic({ db, pipeline, random, devices, swipe, doorEvent });

  /** Force one event of `kind` in `clientId` (tests and the E2E hook). The door defaults to the tenant's first. */
  async function force(
    clientId: number,
    kind: SimulateKind,
    target: { doorId?: number; controllerId?: number; inputId?: number; card?: string; qr?: string; readerId?: number; floor?: number } & SwipeOptions = {},
  ): Promise<Event> {
    if (kind === 'interface.offline' || kind === 'interface.online')
      return interfaceEvent(await controller(clientId, target.controllerId), kind === 'interface.online');
    if (kind === 'input.active' || kind === 'input.normal') return inputEvent(clientId, target.inputId, kind === 'input.active');
    if (kind === 'elevator.floor') return floorRequest(clientId, target.readerId, target.floor, target);
    let d: DoorRow;
    if (target.doorId !== undefined) d = await door(clientId, target.doorId);
    else {
      const first = await q.firstDoor(db, clientId);
      if (!first) throw new HardwareError(404, fill('record.notFound', '{what} not found', { what: 'Door' }));
      d = first;
    }
    switch (kind) {
      case 'door.forced':
        return doorEvent(d, EVENT_CODES.doorForcedOpen);
      case 'door.held':
        return doorEvent(d, EVENT_CODES.doorHeldOpen);
      case 'door.closed':
        return doorEvent(d, EVENT_CODES.doorClosed);
      case 'card.granted':
        return target.card ? swipeCard(d, target.card, target) : swipe(d, true, target);
      case 'card.denied':
        return target.card ? swipeCard(d, target.card, target) : swipe(d, false, target);
      case 'qr.presented': {
        if (!target.qr) throw new HardwareError(400, fill('simulate.qrRequired', 'is required: which QR code', {}), 'qr');
        // the credential number the code carries (GHQ.<number>.<window>.<mac>), for the event's record only
        return swipeCard(d, /^GHQ\.([^.]{1,64})\./.exec(target.qr)?.[1] ?? '', { ...target, qr: target.qr });
      }
      case 'reader.tamper':
        return readerEvent(d, EVENT_CODES.readerTamper);
      case 'reader.offline':
        return readerEvent(d, EVENT_CODES.readerOffline);
      case 'reader.online':
        return readerEvent(d, EVENT_CODES.readerOnline);
      case 'input.tamper':
        return ioEvent(d, 'input', EVENT_CODES.inputTamper);
      case 'input.idle':
        return ioEvent(d, 'input', EVENT_CODES.inputIdle);
    }
  }

  /** the heart-beats and the firmware roll-outs they move on (heartbeat.ts) */
  const { heartbeat, firmwareStep } = createHeartbeat({ db, pipeline, publish });

  async function tick(): Promise<void> {
    carry += rate / 20;
    let n = Math.floor(carry);
    carry -= n;
    n = Math.min(n, 200);
    if (n === 0) return;
    const rec = await records();
    // SIMULATOR_LANES sequences at once: one event at a time waited for its commit before the next (about 180/s
    // whatever the rate asked); several sources at a time fill the pipeline's group commit, as real controllers do
    await Promise.all(
      Array.from({ length: Math.min(SIMULATOR_LANES, n) }, async (_, lane) => {
        for (let i = lane; i < n && !stopped; i += SIMULATOR_LANES) await randomEvent(rec);
      }),
    );
  }

  const simulator = {
    rate,
    force,
    /** Convenience for tests: door `doorId` (of any tenant) is forced open. */
    async forceDoorOpen(doorId: number) {
      const d = await door(null, doorId);
      return force(d.client_id, 'door.forced', { doorId });
    },
    command: strikes.command,
    pulseOutput,
    /** Tests: run the relock timers on this clock from now on (xstate's SimulatedClock). */
    useClock(c: SimulatorClock) {
      clock = c;
    },
    fastForward: strikes.fastForward,
    settled: strikes.settled,
    /** Swipe a given card number at a door of `clientId`. */
    async swipe(clientId: number, doorId: number, number: string, o: SwipeOptions = {}) {
      return swipeCard(await door(clientId, doorId), number, o);
    },
    explain,
    /** The access indexes (change notices call `access.changed(clientId)`). */
    access,
    /** Tests: forget who is where in a tenant (anti-passback starts afresh), in memory and in the database. */
    resetZones: live.reset,
    forgiven: live.forgiven,
    heartbeat,
    firmwareStep,
    randomEvent,
    start() {
      stopped = false;
      const guard = (fn: () => Promise<void>) => {
        let busy = false;
        return () => {
          if (busy || stopped) return; // a slow database skips ticks instead of piling them up
          busy = true;
          fn()
            .catch((e) => log(`simulator: ${e}`))
            .finally(() => {
              busy = false;
            });
        };
      };
      if (rate > 0) tickTimer = setInterval(guard(tick), 50);
      if (heartbeatMs > 0) beatTimer = setInterval(guard(heartbeat), heartbeatMs);
    },
    stop() {
      stopped = true;
      if (tickTimer) clearInterval(tickTimer);
      if (beatTimer) clearInterval(beatTimer);
      tickTimer = beatTimer = null;
      strikes.stop();
      devices.stopPulses();
      access.stop();
    },
  };
  return simulator satisfies HardwarePort & RelockHook; // the simulator is a hardware port (server/doors/port.ts)
}
export type HardwareSimulator = ReturnType<typeof createHardwareSimulator>;
