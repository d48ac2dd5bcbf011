// The hardware simulator: the doors, card readers, inputs, outputs and controllers of every tenant (Configure and
// Hardware records, read afresh every tick) behave like real ones. A swipe happens at a card reader, on its side of
// its door (events `reader-{door}`); inputs are `in-{input}`, outputs `out-{output}`, the strike of a door's commands
// `output-{door}`; each controller has an interface (`iface-{controller}`). Card swipes are decided by the access-decision engine
// (server/access/engine.ts) over the tenant's access index (server/access/index.ts, kept current on change), with
// the zone state (who is where, which doors are open) kept here in memory; each swipe event stores the identity,
// the decision and its reason. Doors are forced or held open; readers are tampered or go offline; inputs and outputs change state
// with the §4 codes. Every event goes through the pipeline (persisted, then published). Heart-beats: doors on
// /hbdoor, controllers on /hbcontroller. Operators' door commands change the simulated door and produce events.
// It implements the hardware port (server/doors/port.ts) and keeps the doors' live state (server/doors/liveState.ts).
import { DESTINATIONS, DOOR_MOMENTARY_MS, DOOR_STATUSES, EVENT_CODES, eventLabel, type Event, type SimulateKind } from '../../contract';
import { DECISION_EVENT_CODES, DECISION_LABELS, type Decision, type Explanation } from '../../contract/decision';
import { afterGrant, decide, decisionMessage, threatAt, type AccessIndex, type SwipeRequest } from '../access/engine';
import { localTime } from '../access/clock';
import { freeingMask, type ElevatorMask } from '../access/elevator';
import { createAccessIndexes, type AccessIndexes } from '../access/index';
import type { Db } from '../db/db';
import { tenant } from '../db/tenant';
import { createDoorLiveState } from '../doors/liveState';
import { createHeartbeat } from './heartbeat';
import { createStrikes, type SimulatorClock } from './strike';
import { HardwareError, type HardwarePort, type RelockHook } from '../doors/port';
import type { Pipeline, Publish } from '../monitor/pipeline';

/** The words a swipe's event is stored with: its reason's label; a threat level's names the level (5013 "Access
 *  denied: threat level NC1 Red"), as the lockdown's 5004 says "door locked down". */
function labelOf(d: Decision, index: AccessIndex, doorId: number, at: number): string {
  if (d.granted) return DECISION_LABELS.granted;
  const door = d.reason === 'threat-level' ? index.doors.get(doorId) : undefined;
  const level = door ? threatAt(door, at) : null;
  return level ? `${DECISION_LABELS[d.reason]} ${level.name}` : DECISION_LABELS[d.reason];
}

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

/** A swipe's extras (the test hook): when it happens (the simulated clock) and on which reader of the door. */
export interface SwipeOptions {
  at?: number;
  side?: 'entry' | 'exit';
  pin?: string | null;
}
/** What a swipe event keeps beside its code, so the explainer can decide it again. */
/** What a swipe presented, kept on its event for Why?: a card number, or a QR code (then `card` is its credential's number, or '' when unreadable). */
interface StoredSwipe {
  card: string;
  at: number;
  side: 'entry' | 'exit';
  doorId: number;
  qr?: string;
}

export type { SimulatorClock };
const realClock: SimulatorClock = { now: () => Date.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) };
/** Random events generated at once per tick (see tick()). */
export const SIMULATOR_LANES = 16;

interface DoorRow {
  id: number;
  client_id: number;
  name: string;
  status: string;
  division_id?: number | null;
}
interface ControllerRow {
  id: number;
  client_id: number;
  name: string;
  status: string;
}

/** The credential/identity facts a swipe is decided on. */
export interface SwipeFacts {
  credentialStatus: string;
  credentialFrom: string | null;
  credentialTo: string | null;
  identityStatus: string;
  identityFrom: string | null;
  identityTo: string | null;
}

/** The access rule: the credential exists, is active and valid today, and its identity is active and valid today. */
export function accessDecision(facts: SwipeFacts | null, today: string): EventCodeOfSwipe {
  if (!facts) return EVENT_CODES.deniedUnknownCredential;
  const inRange = (from: string | null, to: string | null) => (!from || from <= today) && (!to || to >= today);
  if (facts.credentialStatus !== 'active' || !inRange(facts.credentialFrom, facts.credentialTo)) return EVENT_CODES.deniedInactiveCredential;
  if (facts.identityStatus !== 'active' || !inRange(facts.identityFrom, facts.identityTo)) return EVENT_CODES.deniedInactiveIdentity;
  return EVENT_CODES.accessGranted;
}
type EventCodeOfSwipe =
  | typeof EVENT_CODES.accessGranted
  | typeof EVENT_CODES.deniedUnknownCredential
  | typeof EVENT_CODES.deniedInactiveCredential
  | typeof EVENT_CODES.deniedInactiveIdentity;

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
  /** readers that are offline or tampered swipe nothing until they are back */
  const quietReaders = new Set<number>();
  const access = opts.access ?? createAccessIndexes(db, { log });
  /** per tenant: who is where (anti-passback), which doors stand open (interlocks) */
  const live = createDoorLiveState(db);
  const { stateOf, ensurePresence, refreshPresence } = live;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

  async function door(clientId: number | null, doorId: number): Promise<DoorRow> {
    const { rows } = await db.query<DoorRow>(
      clientId === null
        ? 'select id, client_id, name, status, division_id from doors where id = $1'
        : 'select id, client_id, name, status, division_id from doors where id = $1 and client_id = $2',
      clientId === null ? [doorId] : [doorId, clientId],
    );
    if (!rows[0]) throw new HardwareError(404, 'Door not found');
    return rows[0];
  }
  async function controller(clientId: number, controllerId: number | undefined): Promise<ControllerRow> {
    const { rows } = await db.query<ControllerRow>(
      controllerId === undefined
        ? 'select id, client_id, name, status from controllers where client_id = $1 order by id limit 1'
        : 'select id, client_id, name, status from controllers where id = $2 and client_id = $1',
      controllerId === undefined ? [clientId] : [clientId, controllerId],
    );
    if (!rows[0]) throw new HardwareError(404, 'Controller not found');
    return rows[0];
  }

  async function setDoorStatus(d: DoorRow, status: string) {
    if (d.status === status) return;
    d.status = status;
    live.doorStatus(d.client_id, d.id, status);
    await db.query('update doors set status = $2 where id = $1', [d.id, status]);
    // heard by the consoles that may see the door's division (issue 10)
    publish(d.client_id, DESTINATIONS.doorHeartbeat, { id: d.id, name: d.name, doorStatus: status }, { division: d.division_id ?? null });
  }

  async function doorEvent(d: DoorRow, code: number, pointId = `door-${d.id}`, extra = '', keepStatus = false): Promise<Event> {
    const e = await pipeline.record(d.client_id, {
      eventCode: code,
      sourceId: `door-${d.id}`,
      sourceName: d.name,
      pointId,
      pointName: d.name,
      message: `${eventLabel(code)} at ${d.name}${extra}`,
    });
    const status = doorStatusOf[code];
    if (status && !keepStatus) await setDoorStatus(d, status);
    return e;
  }

  /** the doors' strikes: operators' commands in arrival order per door, the momentary relocks (strike.ts) */
  const strikes = createStrikes({ db, momentaryMs, log, clock: () => clock, stopped: () => stopped, door, doorEvent });

  async function swipe(d: DoorRow, wantGranted: boolean | null, o: SwipeOptions = {}): Promise<Event> {
    let number: string;
    if (wantGranted === false || (wantGranted === null && random() < 0.1))
      number = `9${Math.floor(random() * 1e8)}`; // nobody's card
    else {
      // a card the engine grants here and now (wanted), or any of the tenant's cards (random traffic)
      const index = await access.get(d.client_id);
      await ensurePresence(d.client_id);
      const at = o.at ?? Date.now();
      const cards = [...index.credentials.keys()];
      let found: string | undefined;
      for (let tries = 0; tries < 50 && cards.length; tries++) {
        const c = pick(cards);
        if (!wantGranted || decide(index, stateOf(d.client_id), { doorId: d.id, at, side: o.side, presented: { kind: 'card', number: c } }).granted) {
          found = c;
          break;
        }
      }
      if (!found && wantGranted)
        found = cards.find((c) => decide(index, stateOf(d.client_id), { doorId: d.id, at, side: o.side, presented: { kind: 'card', number: c } }).granted);
      number = found ?? `9${Math.floor(random() * 1e8)}`;
    }
    return swipeCard(d, number, o);
  }

  /** A swipe of card `number` at door `d`, decided by the engine over the tenant's access index. */
  async function swipeCard(d: DoorRow, number: string, o: SwipeOptions & { qr?: string } = {}): Promise<Event> {
    const index = await access.get(d.client_id);
    const req: SwipeRequest = {
      doorId: d.id,
      side: o.side ?? 'entry',
      at: o.at ?? Date.now(),
      presented: o.qr ? { kind: 'qr', code: o.qr } : { kind: 'card', number },
      pin: o.pin,
    };
    await ensurePresence(d.client_id);
    const holder = o.qr ? undefined : index.credentials.get(number)?.identityId;
    if (holder !== undefined) await refreshPresence(d.client_id, holder);
    const decision = decide(index, stateOf(d.client_id), req);
    if (decision.granted && decision.identityId !== null) {
      await live.admitted(d.client_id, decision.identityId, afterGrant(stateOf(d.client_id), index, req, decision));
    }
    const who = decision.identityId === null ? null : (index.identities.get(decision.identityId)?.name ?? null);
    const code = DECISION_EVENT_CODES[decision.reason];
    const stored: StoredSwipe = { card: number, at: req.at, side: req.side ?? 'entry', doorId: d.id, ...(o.qr ? { qr: o.qr } : {}) };
    // the decision goes in with the event (one insert of the batch; it used to be an update per swipe after it)
    const e = await pipeline.record(d.client_id, {
      eventCode: code,
      sourceId: `reader-${d.id}`,
      sourceName: `${d.name} reader`,
      pointId: `reader-${d.id}`,
      pointName: `${d.name} reader`,
      message: `${labelOf(decision, index, d.id, req.at)}: ${who ?? (o.qr ? 'unknown QR code' : 'unknown card')} (${o.qr ? 'QR code' : `card ${number}`}) at ${d.name}`,
      decided: { identityId: decision.identityId, decision: decision.granted ? 'granted' : 'denied', reason: decision.reason, swipe: stored },
    });
    if (decision.alarm === 'anti-passback') {
      await pipeline.record(d.client_id, {
        eventCode: EVENT_CODES.antiPassbackViolation,
        sourceId: `reader-${d.id}`,
        sourceName: `${d.name} reader`,
        pointId: `apb-${d.id}`,
        pointName: `${d.name} anti-passback`,
        message: `${eventLabel(EVENT_CODES.antiPassbackViolation)}: ${who ?? 'unknown'} (card ${number}) at ${d.name} — ${decisionMessage(decision)}`,
      });
    }
    return e;
  }

  /** "Why?": the stored swipe event `eventId` of `clientId` decided again against the current index (null: not a swipe of this tenant). */
  async function explain(clientId: number, eventId: number): Promise<Explanation | null> {
    const params: unknown[] = [eventId];
    const { rows } = await db.query<{
      id: string;
      swipe: StoredSwipe | string | null;
      reason: string | null;
      decision: string | null;
      identity_id: number | null;
    }>(`select id, swipe, reason, decision, identity_id from events where id = $1 and ${tenant(params, clientId)}`, params);
    const row = rows[0];
    if (!row || !row.swipe) return null;
    const sw: StoredSwipe = typeof row.swipe === 'string' ? JSON.parse(row.swipe) : row.swipe;
    const index = await access.get(clientId);
    await ensurePresence(clientId);
    // decided as it was: the same card, door, reader side and time, against today's configuration and zone state
    const now: Decision = decide(index, stateOf(clientId), {
      doorId: sw.doorId,
      side: sw.side,
      at: sw.at,
      presented: sw.qr ? { kind: 'qr', code: sw.qr } : { kind: 'card', number: sw.card },
    });
    const identityId = now.identityId ?? row.identity_id;
    return {
      eventId: Number(row.id),
      stored: {
        reason: (row.reason as Explanation['stored']['reason']) ?? null,
        decision: (row.decision as 'granted' | 'denied' | null) ?? null,
        identityId: row.identity_id,
      },
      now: { ...now, label: labelOf(now, index, sw.doorId, sw.at) },
      swipe: { doorId: sw.doorId, doorName: index.doors.get(sw.doorId)?.name ?? null, card: sw.card, at: new Date(sw.at).toISOString(), side: sw.side },
      identityName: identityId === null ? null : (index.identities.get(identityId)?.name ?? null),
    };
  }

  async function readerEvent(d: DoorRow, code: number): Promise<Event> {
    if (code === EVENT_CODES.readerOnline) quietReaders.delete(d.id);
    else quietReaders.add(d.id);
    return pipeline.record(d.client_id, {
      eventCode: code,
      sourceId: `reader-${d.id}`,
      sourceName: `${d.name} reader`,
      message: `${eventLabel(code)} at ${d.name}`,
    });
  }
  const ioEvent = (d: DoorRow, kind: 'input' | 'output', code: number) =>
    pipeline.record(d.client_id, {
      eventCode: code,
      sourceId: `${kind}-${d.id}`,
      sourceName: `${d.name} ${kind === 'input' ? 'contact' : 'strike'}`,
      message: `${eventLabel(code)} at ${d.name}`,
    });

  async function interfaceEvent(c: ControllerRow, online: boolean): Promise<Event> {
    const code = online ? EVENT_CODES.interfaceOnline : EVENT_CODES.interfaceOffline;
    const e = await pipeline.record(c.client_id, { eventCode: code, sourceId: `iface-${c.id}`, sourceName: c.name, message: `${eventLabel(code)}: ${c.name}` });
    await db.query(
      `update controllers set status = $2, online_since = case when $2 = 'online' then coalesce(case when status = 'online' then online_since end, now()) else null end where id = $1`,
      [c.id, online ? 'online' : 'offline'],
    );
    return e;
  }

  /**
   * One input of the hardware records (Hardware → Inputs) becomes active or goes back to normal. Active while an
   * alarm group holding it is armed, it is an intrusion (an alert: a priority-1 alarm); otherwise an ordinary input
   * event. Its point is the input itself, so going back to normal returns the alarm to normal (§4).
   */
  async function inputEvent(clientId: number, inputId: number | undefined, active: boolean): Promise<Event> {
    if (inputId === undefined) throw new HardwareError(400, 'Which input? inputId is required');
    const params: unknown[] = [inputId];
    const { rows } = await db.query<{ id: number; name: string; armed: string | null }>(
      `select i.id, i.name, (select g.name from alarm_groups g join alarm_group_inputs x on x.alarm_group_id = g.id
                              where x.input_id = i.id and g.state = 'armed' order by g.id limit 1) as armed
         from inputs i where i.id = $1 and ${tenant(params, clientId, 'i')}`,
      params,
    );
    const i = rows[0];
    if (!i) throw new HardwareError(404, 'Input not found');
    const code = !active ? EVENT_CODES.inputIdle : i.armed ? EVENT_CODES.intrusion : EVENT_CODES.inputActive;
    const message = code === EVENT_CODES.intrusion ? `${eventLabel(code)}: ${i.name} (alarm zone ${i.armed})` : `${eventLabel(code)}: ${i.name}`;
    return pipeline.record(clientId, { eventCode: code, sourceId: `in-${i.id}`, sourceName: i.name, message });
  }

  /**
   * A floor pressed in the elevator whose car reader is `readerId`: free while a masking of that reader lists the
   * floor and its schedule is open; otherwise it needs a card, decided as a swipe at the reader's door.
   */
  async function floorRequest(
    clientId: number,
    readerId: number | undefined,
    floor: number | undefined,
    o: SwipeOptions & { card?: string } = {},
  ): Promise<Event> {
    if (readerId === undefined) throw new HardwareError(400, 'Which elevator? readerId is required');
    if (floor === undefined) throw new HardwareError(400, 'Which floor? floor is required');
    const params: unknown[] = [readerId];
    const {
      rows: [reader],
    } = await db.query<{ id: number; name: string; door_id: number | null }>(
      `select id, name, door_id from card_readers where id = $1 and ${tenant(params, clientId)}`,
      params,
    );
    if (!reader) throw new HardwareError(404, 'Card reader not found');
    const maskParams: unknown[] = [readerId];
    const { rows: masks } = await db.query<ElevatorMask>(
      `select id, name, floors, schedule_id as "scheduleId" from elevator_masks where reader_id = $1 and ${tenant(maskParams, clientId)} order by id`,
      maskParams,
    );
    const index = await access.get(clientId);
    const at = o.at ?? Date.now();
    const free = freeingMask(masks, floor, localTime(at, index.timeZone), index.schedules, index.calendar);
    const source = { sourceId: `reader-elev-${reader.id}`, sourceName: reader.name };
    if (free) return pipeline.record(clientId, { ...source, eventCode: EVENT_CODES.floorFree, message: `Floor ${floor} free: ${free.name} (${reader.name})` });
    if (!o.card || reader.door_id === null)
      return pipeline.record(clientId, { ...source, eventCode: EVENT_CODES.floorNeedsCard, message: `Floor ${floor} needs a card (${reader.name})` });
    return swipeCard(await door(clientId, reader.door_id), o.card, o);
  }

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
      const params: unknown[] = [];
      const { rows } = await db.query<DoorRow>(`select id, client_id, name, status from doors where ${tenant(params, clientId)} order by id limit 1`, params);
      if (!rows[0]) throw new HardwareError(404, 'Door not found');
      d = rows[0];
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
        if (!target.qr) throw new HardwareError(400, 'Which QR code? qr is required');
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

  /** per output, the timer of its running pulse (a new pulse starts the time again) */
  const pulses = new Map<number, unknown>();
  /**
   * An output (Hardware → Outputs) is switched on for its pulse time, then off by itself; a pulse time of 0 holds it
   * on. `by` says who (an operator, or a logical block) in the event.
   */
  async function pulseOutput(clientId: number, outputId: number, by: string): Promise<Event> {
    const params: unknown[] = [outputId];
    const { rows } = await db.query<{ id: number; name: string; pulse_seconds: number }>(
      `select id, name, pulse_seconds from outputs where id = $1 and ${tenant(params, clientId)}`,
      params,
    );
    const o = rows[0];
    if (!o) throw new HardwareError(404, 'Output not found');
    const held = o.pulse_seconds === 0;
    const e = await pipeline.record(clientId, {
      eventCode: EVENT_CODES.outputActive,
      sourceId: `out-${o.id}`,
      sourceName: o.name,
      message: `${eventLabel(EVENT_CODES.outputActive)}: ${o.name}, pulsed by ${by}${held ? ' (held on)' : ` for ${o.pulse_seconds} s`}`,
    });
    const running = pulses.get(o.id);
    if (running) clock.clearTimeout(running);
    pulses.delete(o.id);
    if (!held && !stopped) {
      pulses.set(
        o.id,
        clock.setTimeout(() => {
          pulses.delete(o.id);
          void pipeline
            .record(clientId, {
              eventCode: EVENT_CODES.outputIdle,
              sourceId: `out-${o.id}`,
              sourceName: o.name,
              message: `${eventLabel(EVENT_CODES.outputIdle)}: ${o.name} (pulse ended)`,
            })
            .catch((err) => log(`pulse ${o.id}: ${err}`));
        }, o.pulse_seconds * 1000),
      );
    }
    return e;
  }

  /**
   * The hardware records the random traffic comes from (issue 12: the simulator simulates exactly what exists): card
   * readers (a swipe happens at a reader, on its side of its door), inputs (`in-<id>`) and outputs (`out-<id>`),
   * doors and controllers. Read once per tick, so a new door, reader or input is live at the next tick.
   */
  interface Records {
    doors: DoorRow[];
    readers: { id: number; door_id: number; direction: 'entry' | 'exit' }[];
    inputs: { id: number; client_id: number; name: string }[];
    outputs: { id: number; client_id: number; name: string }[];
  }
  async function records(): Promise<Records> {
    const [doors, readers, inputs, outputs] = await Promise.all([
      db.query<DoorRow>('select id, client_id, name, status from doors order by id'),
      db.query<Records['readers'][number]>('select id, door_id, direction from card_readers where door_id is not null order by id'),
      db.query<Records['inputs'][number]>('select id, client_id, name from inputs order by id'),
      db.query<Records['outputs'][number]>('select id, client_id, name from outputs order by id'),
    ]);
    return { doors: doors.rows, readers: readers.rows, inputs: inputs.rows, outputs: outputs.rows };
  }

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
        await swipe(byId.get(rd.door_id)!, null, { side: rd.direction });
      }
    };
    if (x < 0.8) await swipeAtReader();
    else if (x < 0.87) {
      if (rec.inputs.length) {
        const i = pick(rec.inputs);
        const code = pick([EVENT_CODES.inputIdle, EVENT_CODES.inputActive, EVENT_CODES.inputOpen, EVENT_CODES.inputIdle, EVENT_CODES.inputUnknown]);
        // active goes through the input's own path: an armed alarm group makes it an intrusion
        if (code === EVENT_CODES.inputActive) await inputEvent(i.client_id, i.id, true);
        else await pipeline.record(i.client_id, { eventCode: code, sourceId: `in-${i.id}`, sourceName: i.name, message: `${eventLabel(code)}: ${i.name}` });
      }
    } else if (x < 0.93) {
      if (rec.outputs.length) {
        const o = pick(rec.outputs);
        const code = pick([EVENT_CODES.outputIdle, EVENT_CODES.outputActive]);
        await pipeline.record(o.client_id, { eventCode: code, sourceId: `out-${o.id}`, sourceName: o.name, message: `${eventLabel(code)}: ${o.name}` });
      }
    } else if (x < 0.945) await doorEvent(d, EVENT_CODES.doorForcedOpen);
    else if (x < 0.96) await doorEvent(d, EVENT_CODES.doorHeldOpen);
    else if (x < 0.975) {
      // a reader is tampered with, or goes offline or back: only a door that has one
      const withReader = rec.doors.filter((x2) => rec.readers.some((rd) => rd.door_id === x2.id));
      if (withReader.length) {
        const r = pick(withReader);
        await readerEvent(r, x < 0.965 ? EVENT_CODES.readerTamper : quietReaders.has(r.id) ? EVENT_CODES.readerOnline : EVENT_CODES.readerOffline);
      }
    } else if (x < 0.98) {
      if (rec.inputs.length) {
        const i = pick(rec.inputs);
        await pipeline.record(i.client_id, {
          eventCode: EVENT_CODES.inputTamper,
          sourceId: `in-${i.id}`,
          sourceName: i.name,
          message: `${eventLabel(EVENT_CODES.inputTamper)}: ${i.name}`,
        });
      }
    } else if (x < 0.99) {
      const params: unknown[] = [];
      const { rows } = await db.query<ControllerRow>(
        `select id, client_id, name, status from controllers where ${tenant(params, d.client_id)} order by id`,
        params,
      );
      if (rows.length) {
        const c = pick(rows);
        await interfaceEvent(c, c.status !== 'online');
      }
    } else if (quietReaders.has(d.id)) await readerEvent(d, EVENT_CODES.readerOnline);
    else await swipeAtReader();
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
      for (const t of pulses.values()) clock.clearTimeout(t);
      pulses.clear();
      access.stop();
    },
  };
  return simulator satisfies HardwarePort & RelockHook; // the simulator is a hardware port (server/doors/port.ts)
}
export type HardwareSimulator = ReturnType<typeof createHardwareSimulator>;
