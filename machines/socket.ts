// A real-time connection to one service (§7): STOMP over SockJS in the browser, a fake in tests and replay.
// One actor per service: systemIds 'socket.events', 'socket.central', 'socket.visitor'.
// §4: on failure wait 5 s, then reconnect only if a jwt is still present; the visitor-management connection
// keeps a user count and reconnects after 5 s. Every body is validated by its contract schema; an invalid one is
// reported and dropped, a valid one goes to the machines that act on it and is emitted for the shell, which
// rebroadcasts it as a document event.
import { assertEvent, assign, enqueueActions, fromCallback, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import {
  DESTINATIONS,
  SOCKET_RECONNECT_MS,
  baseDestination,
  isDestinationOf,
  schemaForDestination,
  validate,
  type AcknowledgeUpdate,
  type AlarmAction,
  type AlarmCount,
  type ControllerHeartbeat,
  type DoorHeartbeat,
  type Event,
  type HardwareStatusPush,
  type RealtimeEvent,
  type RealtimeService,
  type Violation,
} from '../contract';
import { notProvided } from './notProvided';
import { invariants } from './socket.invariants';

export const SOCKET_SYSTEM_IDS = {
  event: 'socket.events',
  central: 'socket.central',
  visitor: 'socket.visitor',
} as const satisfies Record<RealtimeService, string>;

/** Sent back by the transport, and by the shell for the visitor count. */
export type SocketEvent =
  | { type: 'socket.connect' }
  | { type: 'session.started' }
  | { type: 'session.ended' }
  | { type: 'socket.connected' }
  | { type: 'socket.closed'; reason?: string }
  | { type: 'socket.message'; destination: string; body: unknown }
  /** The frames of one transport message (a coalesced batch from the broker), in order: one transition, not one each. */
  | { type: 'socket.messages'; messages: SocketMessage[] }
  | { type: 'socket.userJoined' }
  | { type: 'socket.userLeft' }
  /** The computer woke from sleep: while connected, resync as after a reconnect (messages may be missing). */
  | { type: 'socket.wake' };

export interface SocketMessage {
  destination: string;
  body: unknown;
}

export type SocketEmitted =
  | { type: 'socket.message'; service: RealtimeService; destination: string; body: unknown }
  | { type: 'socket.invalidMessage'; service: RealtimeService; destination: string; violations: Violation[] }
  | { type: 'socket.resynced'; service: RealtimeService };

/** The facts other machines are sent (by systemId) when a valid body arrives. */
export type AlarmFact =
  | { type: 'event.received'; event: Event }
  | { type: 'alarm.actioned'; action: AlarmAction }
  | { type: 'alarm.acknowledged'; update: AcknowledgeUpdate }
  | { type: 'alarm.counted'; count: number };
export type HardwareFact =
  | { type: 'event.received'; event: RealtimeEvent }
  | { type: 'hardware.statusPushed'; status: HardwareStatusPush }
  | { type: 'door.heartbeatReceived'; door: DoorHeartbeat }
  | { type: 'controller.heartbeatReceived'; controllers: ControllerHeartbeat };
export type Routed = { to: 'alarms'; event: AlarmFact } | { to: 'hardwareStatus'; event: HardwareFact };
/** Several facts for one machine, from one batch of frames, applied in order in one transition. */
export type AlarmFacts = { type: 'facts.received'; facts: AlarmFact[] };
export type HardwareFacts = { type: 'facts.received'; facts: HardwareFact[] };

/** Input of the injected transport: the service to reach and the jwt to CONNECT with (may be null for visitor). */
export interface ConnectionInput {
  service: RealtimeService;
  token: string | null;
}

export interface SocketInput {
  service: RealtimeService;
  autoConnect?: boolean;
}

export interface SocketContext {
  service: RealtimeService;
  autoConnect: boolean;
  /** Visitor-management only: users currently on the kiosk/stream (never below 0). */
  userCount: number;
  /** Bodies dropped as invalid since start (diagnostics). */
  dropped: number;
  /** Successful connects since start; above 1 means reconnects happened. */
  connects: number;
}

// ---------- pure helpers (tested) ----------

/** Parse (when text) and validate a body for its destination on this service. */
export function checkMessage(
  service: RealtimeService,
  destination: string,
  body: unknown,
): { ok: true; value: unknown } | { ok: false; violations: Violation[] } {
  if (!isDestinationOf(service, destination))
    return { ok: false, violations: [{ field: '(destination)', message: `is not served by the ${service} service` }] };
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return { ok: false, violations: [{ field: '(body)', message: 'is not JSON' }] };
    }
  }
  const schema = schemaForDestination(destination);
  if (!schema) return { ok: false, violations: [{ field: '(destination)', message: 'has no schema' }] };
  return validate(parsed, schema);
}

/** Which machine hears what (a validated body). Greetings, clocking and dynamic QR only go to the shell. */
export function routeMessage(destination: string, body: unknown): Routed[] {
  switch (baseDestination(destination)) {
    case DESTINATIONS.events:
      return destination === DESTINATIONS.events
        ? [
            { to: 'alarms', event: { type: 'event.received', event: body as Event } },
            { to: 'hardwareStatus', event: { type: 'event.received', event: body as Event } },
          ]
        : [{ to: 'hardwareStatus', event: { type: 'event.received', event: body as RealtimeEvent } }];
    case DESTINATIONS.alarmAction:
      return [{ to: 'alarms', event: { type: 'alarm.actioned', action: body as AlarmAction } }];
    case DESTINATIONS.acknowledge:
      return [{ to: 'alarms', event: { type: 'alarm.acknowledged', update: body as AcknowledgeUpdate } }];
    case DESTINATIONS.alarmCount:
      return [{ to: 'alarms', event: { type: 'alarm.counted', count: (body as AlarmCount).count } }];
    case DESTINATIONS.hardware:
      return [{ to: 'hardwareStatus', event: { type: 'hardware.statusPushed', status: body as HardwareStatusPush } }];
    case DESTINATIONS.doorHeartbeat:
      return [{ to: 'hardwareStatus', event: { type: 'door.heartbeatReceived', door: body as DoorHeartbeat } }];
    case DESTINATIONS.controllerHeartbeat:
      return [{ to: 'hardwareStatus', event: { type: 'controller.heartbeatReceived', controllers: body as ControllerHeartbeat } }];
    default:
      return [];
  }
}

/** What a machine is told of a batch's facts for it: one fact as itself, several as one `facts.received`. */
function oneOrBatch<F extends AlarmFact | HardwareFact>(facts: F[]): F | { type: 'facts.received'; facts: F[] } {
  return facts.length === 1 ? facts[0] : { type: 'facts.received', facts };
}

// ---------- machine ----------

export const socketMachine = lazySetup({
  types: {
    context: {} as SocketContext,
    events: {} as SocketEvent,
    input: {} as SocketInput,
    emitted: {} as SocketEmitted,
    tags: {} as 'online' | 'busy',
  },
  actors: {
    /** Is a jwt still stored? The jwt itself (handed to the transport), or null. */
    readToken: notProvided<string | null>('readToken'),
    /** The transport: sends back socket.connected / socket.closed / socket.message; stopping it disconnects. */
    connection: fromCallback<SocketEvent, ConnectionInput>(() => {
      throw new Error('connection was not provided: pass it with machine.provide({ actors })');
    }),
  },
  guards: {
    autoConnect: ({ context }) => context.autoConnect,
    // §4: the event and central connections need a stored jwt; the visitor-management one reconnects regardless
    mayConnect: ({ context, event }) => context.service === 'visitor' || (event as { output?: unknown }).output != null,
    isVisitor: ({ context }) => context.service === 'visitor',
  },
  delays: { reconnect: SOCKET_RECONNECT_MS },
  actions: {
    // one frame or a batch: each body checked on its own (a bad one is dropped, the rest kept, in order); each
    // machine is sent its facts once per batch: one fact as itself, several as one `facts.received`
    handleMessage: enqueueActions(({ context, event, enqueue, system }) => {
      assertEvent(event, ['socket.message', 'socket.messages']);
      const messages = event.type === 'socket.message' ? [event] : event.messages;
      const facts = { alarms: [] as AlarmFact[], hardwareStatus: [] as HardwareFact[] };
      const heard: SocketEmitted[] = [];
      let dropped = 0;
      for (const m of messages) {
        const checked = checkMessage(context.service, m.destination, m.body);
        if (!checked.ok) {
          dropped++;
          heard.push({ type: 'socket.invalidMessage', service: context.service, destination: m.destination, violations: checked.violations });
          continue;
        }
        for (const r of routeMessage(m.destination, checked.value)) {
          if (r.to === 'alarms') facts.alarms.push(r.event);
          else facts.hardwareStatus.push(r.event);
        }
        heard.push({ type: 'socket.message', service: context.service, destination: m.destination, body: checked.value });
      }
      if (dropped) enqueue.assign({ dropped: context.dropped + dropped });
      // the machines first, then the views: a view told of a message reads machines that already know it
      const alarms = facts.alarms.length ? system.get('alarms') : undefined;
      if (alarms) enqueue.sendTo(alarms, oneOrBatch<AlarmFact>(facts.alarms));
      const hardware = facts.hardwareStatus.length ? system.get('hardwareStatus') : undefined;
      if (hardware) enqueue.sendTo(hardware, oneOrBatch<HardwareFact>(facts.hardwareStatus));
      for (const e of heard) enqueue.emit(e);
    }),
    countConnect: assign({ connects: ({ context }) => context.connects + 1 }),
    resync: enqueueActions(({ context, enqueue, system }) => {
      // after every (re)connect and wake the open alarms (and, in the views that show them, the events) are
      // re-read from REST: nothing missed while disconnected or asleep is lost
      if (context.service === 'event') {
        const alarms = system.get('alarms');
        if (alarms) enqueue.sendTo(alarms, { type: 'socket.resynced' });
      }
      enqueue.emit({ type: 'socket.resynced', service: context.service });
    }),
  },
}).createMachine({
  id: 'socket',
  context: ({ input }) => ({
    service: input.service,
    autoConnect: input.autoConnect ?? false,
    userCount: 0,
    dropped: 0,
    connects: 0,
  }),
  initial: 'starting',
  meta: { invariants: invariants.machine },
  on: {
    // §4: sign-out disconnects (leaving `online` stops the transport) and forgets the visitor count
    'session.ended': { target: '.idle', actions: assign({ userCount: 0 }) },
    'socket.userJoined': { guard: 'isVisitor', actions: assign({ userCount: ({ context }) => context.userCount + 1 }) },
    'socket.userLeft': { guard: 'isVisitor', actions: assign({ userCount: ({ context }) => Math.max(0, context.userCount - 1) }) },
  },
  states: {
    starting: { always: [{ guard: 'autoConnect', target: 'checking' }, { target: 'idle' }] },
    idle: {
      meta: { invariants: invariants.idle },
      on: { 'socket.connect': 'checking', 'session.started': 'checking' },
    },
    checking: {
      tags: ['busy'],
      meta: { invariants: invariants.checking },
      invoke: {
        id: 'readToken',
        src: 'readToken',
        onDone: [{ guard: 'mayConnect', target: 'online' }, { target: 'idle' }],
        onError: { target: 'idle' },
      },
    },
    online: {
      meta: { invariants: invariants.online },
      invoke: {
        id: 'connection',
        src: 'connection',
        input: ({ context, event }) => ({
          service: context.service,
          token: (event as { output?: string | null }).output ?? null,
        }),
        onError: { target: 'waiting' },
      },
      on: { 'socket.closed': { target: 'waiting' } },
      initial: 'connecting',
      states: {
        connecting: {
          tags: ['busy'],
          meta: { invariants: invariants.connecting },
          on: { 'socket.connected': { target: 'connected', actions: ['countConnect', 'resync'] } },
        },
        connected: {
          tags: ['online'],
          meta: { invariants: invariants.connected },
          on: { 'socket.message': { actions: 'handleMessage' }, 'socket.messages': { actions: 'handleMessage' }, 'socket.wake': { actions: 'resync' } },
        },
      },
    },
    waiting: {
      meta: { invariants: invariants.waiting },
      after: { reconnect: 'checking' },
    },
  },
});

export type SocketActor = ActorRefFrom<typeof socketMachine>;
export type SocketSnapshot = SnapshotFrom<typeof socketMachine>;
