// Live hardware state (§3, §4), systemId 'hardwareStatus': statuses by id (normalised to lower-case hyphenated
// words), door heartbeats (doorStatus default closed) and controller heartbeats (status default undefined).
// Event codes of §4 (1012/1013 interface, 4002/4003 reader, 2000-2004 input, 3000/3001 output) set the status of
// the event's source.
import { assign, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import {
  normaliseStatus,
  statusOfCode,
  type ControllerHeartbeat,
  type HardwareKind,
  type HardwareStatus,
  type HardwareStatusPush,
  type RealtimeEvent,
} from '../contract';
import type { HardwareFact, HardwareFacts } from './socket';

export type HardwareStatusEvent =
  | HardwareFact
  | HardwareFacts
  /** A REST snapshot of statuses (e.g. on opening the hardware screens). */
  | { type: 'hardware.statusesLoaded'; statuses: HardwareStatus[] }
  | { type: 'session.ended' };

export interface DeviceStatus {
  id: string | number;
  name: string | null;
  status: string;
  kind?: HardwareKind;
}
export interface DoorState {
  id: string | number;
  name: string | null;
  doorStatus: string;
}
export interface ControllerState {
  id: string | number;
  name: string | null;
  status: string | undefined;
}

export interface HardwareStatusContext {
  /** by String(id) */
  statuses: Record<string, DeviceStatus>;
  doors: Record<string, DoorState>;
  controllers: Record<string, ControllerState>;
}

// ---------- pure rules (tested) ----------

export function withPush(statuses: Record<string, DeviceStatus>, push: HardwareStatusPush | HardwareStatus): Record<string, DeviceStatus> {
  const key = String(push.id);
  const prev = statuses[key];
  const name = 'name' in push && push.name != null ? push.name : (prev?.name ?? null);
  const code = statusOfCode(push.status);
  return {
    ...statuses,
    [key]: { id: push.id, name, status: normaliseStatus(push.status), ...(code ? { kind: code.kind } : prev?.kind ? { kind: prev.kind } : {}) },
  };
}

/** An event with a §4 status code sets its source's status; any other event changes nothing. */
export function withEvent(statuses: Record<string, DeviceStatus>, event: RealtimeEvent): Record<string, DeviceStatus> {
  const code = statusOfCode(event.eventCode);
  if (!code) return statuses;
  const key = String(event.eventSourceId);
  return { ...statuses, [key]: { id: event.eventSourceId, name: event.eventSourceName ?? statuses[key]?.name ?? null, status: code.status, kind: code.kind } };
}

export function withControllers(controllers: Record<string, ControllerState>, beat: ControllerHeartbeat): Record<string, ControllerState> {
  const next = { ...controllers };
  // §3: the status stays undefined when the heartbeat has none
  for (const c of beat) next[String(c.id)] = { id: c.id, name: c.name ?? null, status: c.status === undefined ? undefined : normaliseStatus(c.status) };
  return next;
}

/** One fact from the socket: the context after it (the same objects for what it does not touch). */
export function applyHardwareFact(context: HardwareStatusContext, fact: HardwareFact): HardwareStatusContext {
  switch (fact.type) {
    case 'event.received': {
      const statuses = withEvent(context.statuses, fact.event);
      return statuses === context.statuses ? context : { ...context, statuses };
    }
    case 'hardware.statusPushed':
      return { ...context, statuses: withPush(context.statuses, fact.status) };
    case 'door.heartbeatReceived':
      return {
        ...context,
        doors: {
          ...context.doors,
          [String(fact.door.id)]: { id: fact.door.id, name: fact.door.name ?? null, doorStatus: normaliseStatus(fact.door.doorStatus ?? 'closed') },
        },
      };
    case 'controller.heartbeatReceived':
      return { ...context, controllers: withControllers(context.controllers, fact.controllers) };
  }
}

const empty = (): HardwareStatusContext => ({ statuses: {}, doors: {}, controllers: {} });

export const hardwareStatusMachine = lazySetup({
  types: { context: {} as HardwareStatusContext, events: {} as HardwareStatusEvent },
  actions: {
    // only the socket's facts come here (the transitions below): one, or a batch in order
    applyFact: assign(({ context, event }) =>
      event.type === 'facts.received' ? event.facts.reduce(applyHardwareFact, context) : applyHardwareFact(context, event as HardwareFact),
    ),
  },
}).createMachine({
  id: 'hardwareStatus',
  context: empty,
  initial: 'tracking',
  states: {
    tracking: {
      on: {
        'event.received': { actions: 'applyFact' },
        'hardware.statusPushed': { actions: 'applyFact' },
        'door.heartbeatReceived': { actions: 'applyFact' },
        'controller.heartbeatReceived': { actions: 'applyFact' },
        // a batch from one broker message: one transition, the facts in order
        'facts.received': { actions: 'applyFact' },
        'hardware.statusesLoaded': {
          actions: assign(({ context, event }) => ({ statuses: event.statuses.reduce(withPush, context.statuses) })),
        },
        'session.ended': { actions: assign(empty) },
      },
    },
  },
});

export type HardwareStatusActor = ActorRefFrom<typeof hardwareStatusMachine>;
export type HardwareStatusSnapshot = SnapshotFrom<typeof hardwareStatusMachine>;
