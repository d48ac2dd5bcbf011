// The alarm lifecycle (§4), systemId 'alarms'. Facts arrive from the socket actor (already validated), the open
// list is re-read from REST after every (re)connect, and operators acknowledge and process through injected
// REST actors (the server broadcasts the result to every console, this one included).
import { assign, emit, enqueueActions, setup, stateIn, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { eventPointIdOf, sameId, type AcknowledgeUpdate, type AlarmAction, type Event } from '../contract';
import { errorText, notProvided } from './notProvided';
import type { AlarmFact } from './socket';

export type AlarmsEvent =
  | AlarmFact
  | { type: 'socket.resynced' }
  | { type: 'alarms.synced'; alarms: Event[] }
  | { type: 'alarm.acknowledge'; id: Event['id'] }
  | { type: 'alarm.process'; id: Event['id']; note: string }
  | { type: 'alarm.errorDismissed' }
  | { type: 'session.ended' };

/** Heard by the shell: a sound, a title badge, a 5 s notification. */
export type AlarmsEmitted =
  | { type: 'alarm.raised'; alarm: Event }
  /** Issue 10: this console's acknowledge or process went through (the shell says so). */
  | { type: 'alarm.commandDone'; what: 'acknowledged' | 'processed' };

export interface AlarmsContext {
  /** Open alerts in arrival order (the selectors sort them). */
  alarms: Event[];
  /** The server's open count from /alarmcount, when heard. */
  serverCount: number | null;
  /** Facts heard while the REST snapshot was in flight, re-applied on top of it. */
  pending: AlarmFact[];
  error: string | null;
}

export interface ProcessRequest { id: Event['id']; note: string; eventPointId: Event['id'] }

// ---------- pure rules (tested) ----------

/** §4, one fact at a time. `raised` is the alert that was added, if any. */
export function applyFact(alarms: readonly Event[], fact: AlarmFact): { alarms: Event[]; raised?: Event } {
  switch (fact.type) {
    case 'event.received': {
      const e = fact.event;
      if (e.alert) {
        // §4: an alert is added once; a repeat of the same id is ignored
        if (alarms.some((a) => sameId(a.id, e.id))) return { alarms: [...alarms] };
        return { alarms: [...alarms, e], raised: e };
      }
      // §4: a non-alert event for the same point clears its alerts (eventPointId falls back to eventSourceId)
      const point = eventPointIdOf(e);
      return { alarms: alarms.filter((a) => !sameId(eventPointIdOf(a), point)) };
    }
    case 'alarm.acknowledged':
      // §4: an acknowledge update sets the acknowledge value on the matching alert
      return { alarms: alarms.map((a) => (sameId(a.id, fact.update.id) ? { ...a, acknowledge: fact.update.acknowledge } : a)) };
    case 'alarm.actioned':
      // §4: an alarm action with the process flag removes the alerts of that event point
      if (!fact.action.process) return { alarms: [...alarms] };
      return { alarms: alarms.filter((a) => !sameId(eventPointIdOf(a), fact.action.eventPointId)) };
    case 'alarm.counted':
      return { alarms: [...alarms] };
  }
}

/** Replace the list with a REST snapshot (alerts only, deduplicated), then re-apply what arrived meanwhile. */
export function syncAlarms(previous: readonly Event[], snapshot: readonly Event[], pending: readonly AlarmFact[]): { alarms: Event[]; raised: Event[] } {
  let alarms: Event[] = [];
  for (const e of snapshot) if (e.alert && !alarms.some((a) => sameId(a.id, e.id))) alarms.push(e);
  for (const f of pending) alarms = applyFact(alarms, f).alarms;
  // alerts raised while this console was disconnected are new to the operator too
  const raised = alarms.filter((a) => !previous.some((p) => sameId(p.id, a.id)));
  return { alarms, raised };
}

const isFact = (e: { type: string }): e is AlarmFact =>
  e.type === 'event.received' || e.type === 'alarm.acknowledged' || e.type === 'alarm.actioned' || e.type === 'alarm.counted';

// ---------- machine ----------

const alarmsSetup = setup({
  types: {
    context: {} as AlarmsContext,
    events: {} as AlarmsEvent,
    emitted: {} as AlarmsEmitted,
    tags: {} as 'syncing' | 'busy',
  },
  actors: {
    /** GET the open alarms (REST), after every (re)connect. */
    loadAlarms: notProvided<Event[]>('loadAlarms'),
    /** POST the acknowledge (REST); its answer is the update the server broadcasts. */
    acknowledgeAlarm: notProvided<AcknowledgeUpdate, { id: Event['id'] }>('acknowledgeAlarm'),
    /** POST the process with the operator's note (REST); its answer is the alarm action the server broadcasts. */
    processAlarm: notProvided<AlarmAction, ProcessRequest>('processAlarm'),
  },
  guards: {
    knownUnacknowledged: ({ context, event }) =>
      event.type === 'alarm.acknowledge' && context.alarms.some((a) => sameId(a.id, event.id) && !a.acknowledge),
    known: ({ context, event }) => event.type === 'alarm.process' && context.alarms.some((a) => sameId(a.id, event.id)),
  },
  actions: {
    commandDone: emit((_, params: { what: 'acknowledged' | 'processed' }) => ({ type: 'alarm.commandDone' as const, what: params.what })),
    applyFact: enqueueActions(({ context, event, enqueue }) => {
      if (!isFact(event)) return;
      const { alarms, raised } = applyFact(context.alarms, event);
      enqueue.assign({
        alarms,
        serverCount: event.type === 'alarm.counted' ? event.count : context.serverCount,
      });
      if (raised) enqueue.emit({ type: 'alarm.raised', alarm: raised });
    }),
    replaceAlarms: enqueueActions(({ context, enqueue }, params: { alarms: Event[] }) => {
      const { alarms, raised } = syncAlarms(context.alarms, params.alarms, context.pending);
      enqueue.assign({ alarms, pending: [], error: null });
      for (const alarm of raised) enqueue.emit({ type: 'alarm.raised', alarm });
    }),
    applyOutcome: assign(({ context }, params: { fact: AlarmFact; buffer: boolean }) => ({
      alarms: applyFact(context.alarms, params.fact).alarms,
      pending: params.buffer ? [...context.pending, params.fact] : context.pending,
    })),
    bufferFact: assign(({ context, event }) => ({ pending: isFact(event) ? [...context.pending, event] : context.pending })),
  },
});

/** A command's answer is applied like the broadcast fact (and buffered when a snapshot is in flight). */
const outcome = (toFact: (event: any) => AlarmFact, what: 'acknowledged' | 'processed') => [
  { guard: stateIn({ feed: 'syncing' }), target: 'ready', actions: [{ type: 'applyOutcome' as const, params: ({ event }: { event: any }) => ({ fact: toFact(event), buffer: true }) }, { type: 'commandDone' as const, params: { what } }] },
  { target: 'ready', actions: [{ type: 'applyOutcome' as const, params: ({ event }: { event: any }) => ({ fact: toFact(event), buffer: false }) }, { type: 'commandDone' as const, params: { what } }] },
];
const replaceWith = (get: (event: any) => Event[]) => ({ type: 'replaceAlarms' as const, params: ({ event }: { event: any }) => ({ alarms: get(event) }) });

export const alarmsMachine = alarmsSetup.createMachine({
  id: 'alarms',
  context: { alarms: [], serverCount: null, pending: [], error: null },
  type: 'parallel',
  on: {
    'event.received': { actions: 'applyFact' },
    'alarm.acknowledged': { actions: 'applyFact' },
    'alarm.actioned': { actions: 'applyFact' },
    'alarm.counted': { actions: 'applyFact' },
    'alarm.errorDismissed': { actions: assign({ error: null }) },
    // sign-out forgets everything and cancels what is in flight
    'session.ended': { target: ['.feed.live', '.command.ready'], actions: assign({ alarms: [], serverCount: null, pending: [], error: null }) },
  },
  states: {
    feed: {
      initial: 'live',
      states: {
        live: {
          on: {
            'socket.resynced': 'syncing',
            'alarms.synced': { actions: replaceWith((e) => e.alarms) },
          },
        },
        syncing: {
          tags: ['syncing'],
          on: {
            'event.received': { actions: ['applyFact', 'bufferFact'] },
            'alarm.acknowledged': { actions: ['applyFact', 'bufferFact'] },
            'alarm.actioned': { actions: ['applyFact', 'bufferFact'] },
            // a second reconnect while the first snapshot is in flight: read again
            'socket.resynced': { target: 'syncing', reenter: true },
            'alarms.synced': { target: 'live', actions: replaceWith((e) => e.alarms) },
          },
          invoke: {
            id: 'loadAlarms',
            src: 'loadAlarms',
            onDone: { target: 'live', actions: replaceWith((e) => e.output) },
            onError: { target: 'live', actions: assign(({ event }) => ({ pending: [], error: errorText(event.error, 'Could not load the open alarms') })) },
          },
        },
      },
    },
    command: {
      initial: 'ready',
      states: {
        ready: {
          on: {
            'alarm.acknowledge': { guard: 'knownUnacknowledged', target: 'acknowledging', actions: assign({ error: null }) },
            'alarm.process': { guard: 'known', target: 'processing', actions: assign({ error: null }) },
          },
        },
        acknowledging: {
          tags: ['busy'],
          invoke: {
            id: 'acknowledge',
            src: 'acknowledgeAlarm',
            input: ({ event }) => ({ id: (event as { id: Event['id'] }).id }),
            // the /acknowledge/event broadcast normally arrives first; applying the answer too keeps a console whose
            // socket is down truthful (and it is idempotent)
            onDone: outcome((e) => ({ type: 'alarm.acknowledged', update: e.output }), 'acknowledged'),
            onError: { target: 'ready', actions: assign(({ event }) => ({ error: errorText(event.error, 'Could not acknowledge the alarm') })) },
          },
        },
        processing: {
          tags: ['busy'],
          invoke: {
            id: 'process',
            src: 'processAlarm',
            input: ({ context, event }) => {
              const e = event as { id: Event['id']; note: string };
              const alarm = context.alarms.find((a) => sameId(a.id, e.id));
              return { id: e.id, note: e.note, eventPointId: alarm ? eventPointIdOf(alarm) : e.id };
            },
            onDone: outcome((e) => ({ type: 'alarm.actioned', action: e.output }), 'processed'),
            onError: { target: 'ready', actions: assign(({ event }) => ({ error: errorText(event.error, 'Could not process the alarm') })) },
          },
        },
      },
    },
  },
});

export type AlarmsActor = ActorRefFrom<typeof alarmsMachine>;
export type AlarmsSnapshot = SnapshotFrom<typeof alarmsMachine>;
