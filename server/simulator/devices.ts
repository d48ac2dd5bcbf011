// The simulator's readers, inputs, outputs, controllers and elevators (server/simulator/hardware.ts): a reader
// tampered or off/online, an input active or back to normal (an intrusion while its alarm group is armed), an output
// pulsed, an interface off/online, a floor pressed in an elevator.
import { EVENT_CODES, eventLabel, fill, sentenceValue, type Event } from '../../contract';
import { localTime } from '../../access/clock';
import { freeingMask } from '../access/elevator';
import type { AccessIndexes } from '../access/index';
import type { Db } from '../db/db';
import * as q from '../db/queries/simulator';
import { HardwareError, type Actor } from '../doors/port';
import type { Pipeline } from '../monitor/pipeline';
import { atSource, intrusion, said } from '../monitor/events';
import type { ControllerRow, DoorRow } from './hardwareRows';
import type { SimulatorClock } from './strike';
import type { SwipeOptions } from './swipes';

export function createDevices({
  db,
  pipeline,
  access,
  log,
  clock,
  stopped,
  door,
  swipeCard,
}: {
  db: Db;
  pipeline: Pipeline;
  access: AccessIndexes;
  log: (message: string) => void;
  clock: () => SimulatorClock;
  stopped: () => boolean;
  door: (clientId: number | null, doorId: number) => Promise<DoorRow>;
  swipeCard: (d: DoorRow, number: string, o?: SwipeOptions & { qr?: string }) => Promise<Event>;
}) {
  /** readers that are offline or tampered swipe nothing until they are back */
  const quietReaders = new Set<number>();

  async function readerEvent(d: DoorRow, code: number): Promise<Event> {
    if (code === EVENT_CODES.readerOnline) quietReaders.delete(d.id);
    else quietReaders.add(d.id);
    return pipeline.record(d.client_id, {
      eventCode: code,
      sourceId: `reader-${d.id}`,
      sourceName: `${d.name} reader`,
      ...said(fill('event.atDoor', '{event} at {door}', { event: eventLabel(code), door: d.name })),
    });
  }
  const ioEvent = (d: DoorRow, kind: 'input' | 'output', code: number) =>
    pipeline.record(d.client_id, {
      eventCode: code,
      sourceId: `${kind}-${d.id}`,
      sourceName: `${d.name} ${kind === 'input' ? 'contact' : 'strike'}`,
      ...said(fill('event.atDoor', '{event} at {door}', { event: eventLabel(code), door: d.name })),
    });

  async function interfaceEvent(c: ControllerRow, online: boolean): Promise<Event> {
    const code = online ? EVENT_CODES.interfaceOnline : EVENT_CODES.interfaceOffline;
    const e = await pipeline.record(c.client_id, { eventCode: code, sourceId: `iface-${c.id}`, sourceName: c.name, ...atSource(code, c.name) });
    await q.setControllerOnline(db, c.id, online);
    return e;
  }

  /**
   * One input of the hardware records (Hardware → Inputs) becomes active or goes back to normal. Active while an
   * alarm group holding it is armed, it is an intrusion (an alert: a priority-1 alarm); otherwise an ordinary input
   * event. Its point is the input itself, so going back to normal returns the alarm to normal (§4).
   */
  async function inputEvent(clientId: number, inputId: number | undefined, active: boolean): Promise<Event> {
    if (inputId === undefined) throw new HardwareError(400, fill('simulate.inputRequired', 'is required: which input', {}), 'inputId');
    const i = await q.inputWithArmedGroup(db, clientId, inputId);
    if (!i) throw new HardwareError(404, fill('record.notFound', '{what} not found', { what: 'Input' }));
    const code = !active ? EVENT_CODES.inputIdle : i.armed ? EVENT_CODES.intrusion : EVENT_CODES.inputActive;
    const message = code === EVENT_CODES.intrusion && i.armed ? intrusion(i.name, i.armed) : atSource(code, i.name);
    return pipeline.record(clientId, { eventCode: code, sourceId: `in-${i.id}`, sourceName: i.name, ...message });
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
    if (readerId === undefined) throw new HardwareError(400, fill('simulate.elevatorRequired', 'is required: which elevator car’s reader', {}), 'readerId');
    if (floor === undefined) throw new HardwareError(400, fill('simulate.floorRequired', 'is required: which floor', {}), 'floor');
    const reader = await q.simulatorReader(db, clientId, readerId);
    if (!reader) throw new HardwareError(404, fill('record.notFound', '{what} not found', { what: 'Reader' }));
    const masks = await q.elevatorMasksOf(db, clientId, readerId);
    const index = await access.get(clientId);
    const at = o.at ?? Date.now();
    const free = freeingMask(masks, floor, localTime(at, index.timeZone), index.schedules, index.calendar);
    const source = { sourceId: `reader-elev-${reader.id}`, sourceName: reader.name };
    if (free)
      return pipeline.record(clientId, {
        ...source,
        eventCode: EVENT_CODES.floorFree,
        ...said(fill('event.floorFree', 'Floor {floor} free: {mask} ({reader})', { floor, mask: free.name, reader: reader.name })),
      });
    if (!o.card || reader.door_id === null)
      return pipeline.record(clientId, {
        ...source,
        eventCode: EVENT_CODES.floorNeedsCard,
        ...said(fill('event.floorNeedsCard', 'Floor {floor} needs a card ({reader})', { floor, reader: reader.name })),
      });
    return swipeCard(await door(clientId, reader.door_id), o.card, o);
  }

  /** per output, the timer of its running pulse (a new pulse starts the time again) */
  const pulses = new Map<number, unknown>();
  /**
   * An output (Hardware → Outputs) is switched on for its pulse time, then off by itself; a pulse time of 0 holds it
   * on. `by` says who (an operator, or a logical block) in the event.
   */
  async function pulseOutput(clientId: number, outputId: number, by: Actor): Promise<Event> {
    const o = await q.simulatorOutput(db, clientId, outputId);
    if (!o) throw new HardwareError(404, fill('record.notFound', '{what} not found', { what: 'Output' }));
    const held = o.pulse_seconds === 0;
    const e = await pipeline.record(clientId, {
      eventCode: EVENT_CODES.outputActive,
      sourceId: `out-${o.id}`,
      sourceName: o.name,
      ...said(
        held
          ? fill('event.outputHeldOn', '{event}: {output}, pulsed by {actor} (held on)', {
              event: eventLabel(EVENT_CODES.outputActive),
              output: o.name,
              ...sentenceValue('actor', by),
            })
          : fill('event.outputPulsed', '{event}: {output}, pulsed by {actor} for {seconds} s', {
              event: eventLabel(EVENT_CODES.outputActive),
              output: o.name,
              ...sentenceValue('actor', by),
              seconds: o.pulse_seconds,
            }),
      ),
    });
    const running = pulses.get(o.id);
    if (running) clock().clearTimeout(running);
    pulses.delete(o.id);
    if (!held && !stopped()) {
      pulses.set(
        o.id,
        clock().setTimeout(() => {
          pulses.delete(o.id);
          void pipeline
            .record(clientId, {
              eventCode: EVENT_CODES.outputIdle,
              sourceId: `out-${o.id}`,
              sourceName: o.name,
              ...said(fill('event.pulseEnded', '{event}: {output} (pulse ended)', { event: eventLabel(EVENT_CODES.outputIdle), output: o.name })),
            })
            .catch((err) => log(`pulse ${o.id}: ${err}`));
        }, o.pulse_seconds * 1000),
      );
    }
    return e;
  }

  /** Stops the running pulses (the simulator stops). */
  function stopPulses() {
    for (const t of pulses.values()) clock().clearTimeout(t);
    pulses.clear();
  }

  return { quietReaders, readerEvent, ioEvent, interfaceEvent, inputEvent, floorRequest, pulseOutput, stopPulses };
}
export type Devices = ReturnType<typeof createDevices>;
