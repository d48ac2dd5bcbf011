// /monitor/events: the live event list an operator watches (issue 48: it was useState and useRef buffers in the view,
// neither journaled nor replayable nor in the inspector). A view actor (src/hooks/useViewActor.ts, logic id
// `liveEvents`): it reads the newest stored events (`history`), takes the live ones its `listen` actor hears on the
// event socket (batched once per animation frame by the browser's provided `listen`), holds them back while the
// operator has paused the list, and after every reconnect or wake (`socket.resynced`) reads what was stored meanwhile
// after the newest id it shows (`readAfter`), so the list has no hole. At most MAX_ROWS rows, newest first.
//
// The reads after an id run side by side, each its own child (`read-<n>`), never one at a time and never cancelling
// each other: a read still hanging on the server that went away must not hold back the read after it came back
// (e2e/reconnect.spec.ts). A failed read is dropped (the next resync reads again); a failed history load is read again
// at the next resync (nothing else would ever fill the list).
import { and, assign, enqueueActions, fromCallback, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import type { Event } from '../contract';
import { MAX_ROWS, mergeEvents, newestFirst } from './eventOrder';
import { notProvided } from './notProvided';

export { MAX_ROWS } from './eventOrder';

/** What a list shown again carries over (a kept-alive screen hidden and shown: its actor is closed and opened again). */
export interface LiveEventsCarry {
  rows: Event[];
  held: Event[];
  paused: boolean;
  filter: string;
  alertsOnly: boolean;
  historyLoaded: boolean;
}
export interface LiveEventsInput {
  carried?: LiveEventsCarry | null;
}

export interface LiveEventsContext {
  /** What the list shows, newest first, at most MAX_ROWS. */
  rows: Event[];
  /** Live events that came while paused, in arrival order, the newest MAX_ROWS. */
  held: Event[];
  paused: boolean;
  /** The text filter as typed (a number is an event code), and "alarms only". */
  filter: string;
  alertsOnly: boolean;
  /** The last read's number (a read's child id is `read-<n>`) and the reads on their way: child id → the id they read after. */
  seq: number;
  reading: Record<string, number>;
}

export type LiveEventsEvent =
  | { type: 'events.received'; events: Event[] }
  | { type: 'socket.resynced' }
  | { type: 'events.pause' }
  | { type: 'events.resume' }
  | { type: 'events.filter'; text: string }
  | { type: 'events.alertsOnly'; on: boolean };
/** A read's answer (`xstate.done.actor.<id>`) or failure, and the history load's. */
type ReadEvent =
  { type: `xstate.done.actor.${string}`; actorId: string; output: Event[] } | { type: `xstate.error.actor.${string}`; actorId: string; error: unknown };

/** How many live events a frame brought into the list (the view hides rows below the fold in a burst: src/screens/monitor/eventsBurst.ts). */
export type LiveEventsEmitted = { type: 'events.added'; count: number };

const newestId = (rows: readonly Event[]) => Math.max(0, ...rows.map((e) => Number(e.id)).filter((n) => Number.isFinite(n)));
const hold = (held: readonly Event[], more: readonly Event[]) => [...held, ...more].slice(-MAX_ROWS);
const sorted = (rows: readonly Event[]) => rows.every((e, i) => i === 0 || newestFirst(rows[i - 1], e) <= 0);
const once = (rows: readonly Event[]) => new Set(rows.map((e) => String(e.id))).size === rows.length;
type Snap = { context: LiveEventsContext; children: Record<string, unknown> };

export const liveEventsMachine = lazySetup({
  types: {
    context: {} as LiveEventsContext,
    input: {} as LiveEventsInput | undefined,
    events: {} as LiveEventsEvent | ReadEvent,
    emitted: {} as LiveEventsEmitted,
  },
  actors: {
    /** The newest stored events (any order). */
    history: notProvided<Event[], void>('history'),
    /** The events stored after an id, oldest first. */
    readAfter: notProvided<Event[], number>('readAfter'),
    /** Hears the event socket: sends back `events.received` (a frame's live events) and `socket.resynced`. */
    listen: fromCallback<LiveEventsEvent>(() => undefined),
  },
  guards: {
    paused: ({ context }) => context.paused,
    carriedLoaded: ({ context }) => context.seq < 0,
    // only the reads this machine started count
    ours: ({ context, event }) => 'actorId' in event && event.actorId in context.reading,
    foundSome: ({ event }) => 'output' in event && Array.isArray(event.output) && event.output.length > 0,
  },
  actions: {
    show: enqueueActions(({ context, event, enqueue }) => {
      const events = 'events' in event ? event.events : 'output' in event ? event.output : [];
      if (context.paused) return enqueue.assign({ held: hold(context.held, events) });
      enqueue.assign({ rows: mergeEvents(context.rows, events) });
      if (event.type === 'events.received' && events.length) enqueue.emit({ type: 'events.added', count: events.length });
    }),
    /** the history joins the list (paused or not: it is what was there before the operator came) */
    showHistory: assign({ rows: ({ context, event }) => mergeEvents(context.rows, 'output' in event && Array.isArray(event.output) ? event.output : []) }),
    readGap: enqueueActions(({ context, enqueue }) => {
      const seq = Math.max(0, context.seq) + 1;
      const id = `read-${seq}`;
      const afterId = newestId(context.rows);
      enqueue.spawnChild('readAfter', { id, input: afterId });
      enqueue.assign({ seq, reading: { ...context.reading, [id]: afterId } });
    }),
    /** a finished read is let go of (spawned children stay in the snapshot until stopped) and no longer counted */
    release: enqueueActions(({ context, event, enqueue }) => {
      if (!('actorId' in event)) return;
      enqueue.stopChild(event.actorId);
      const { [event.actorId]: _done, ...reading } = context.reading;
      enqueue.assign({ reading });
    }),
  },
}).createMachine({
  id: 'liveEvents',
  // a carried list starts with seq -1 to say its history was loaded (read once by `starting`, then a real count)
  context: ({ input }) => {
    const c = input?.carried;
    return {
      rows: c ? mergeEvents([], c.rows) : [],
      held: c ? c.held.slice(-MAX_ROWS) : [],
      paused: c?.paused ?? false,
      filter: c?.filter ?? '',
      alertsOnly: c?.alertsOnly ?? false,
      seq: c?.historyLoaded ? -1 : 0,
      reading: {},
    };
  },
  invoke: { id: 'listen', src: 'listen' },
  // What holds in every state, written apart from the transitions (read by nothing in the machine): the model test
  // checks it after every step (model-tests/liveEvents.model.test.ts).
  meta: {
    invariants: {
      [`at most ${MAX_ROWS} rows, newest first, each event once`]: ({ context: c }: Snap) => c.rows.length <= MAX_ROWS && sorted(c.rows) && once(c.rows),
      [`at most ${MAX_ROWS} held back, and only while paused`]: ({ context: c }: Snap) => c.held.length <= MAX_ROWS && (c.paused || c.held.length === 0),
      'every read on its way is a running child': ({ context: c, children }: Snap) => Object.keys(c.reading).every((id) => id in children),
    },
  },
  on: {
    'events.received': { actions: 'show' },
    'events.pause': { guard: ({ context }) => !context.paused, actions: assign({ paused: true }) },
    'events.resume': {
      guard: 'paused',
      actions: assign(({ context }) => ({ paused: false, rows: mergeEvents(context.rows, context.held), held: [] })),
    },
    'events.filter': { actions: assign({ filter: ({ event }) => event.text }) },
    'events.alertsOnly': { actions: assign({ alertsOnly: ({ event }) => event.on }) },
    'xstate.done.actor.*': [
      { guard: and(['ours', 'foundSome']), actions: ['release', 'show'] },
      { guard: 'ours', actions: 'release' },
    ],
    'xstate.error.actor.*': { guard: 'ours', actions: 'release' },
  },
  initial: 'starting',
  states: {
    // a list shown again whose history had loaded reads what it missed while hidden; any other reads the history
    starting: {
      always: [{ guard: 'carriedLoaded', target: 'loaded', actions: [assign({ seq: 0 }), 'readGap'] }, { target: 'loading' }],
    },
    loading: {
      meta: {
        invariants: { 'no read after an id before the history is in (the history covers it)': ({ context: c }: Snap) => Object.keys(c.reading).length === 0 },
      },
      invoke: {
        id: 'history',
        src: 'history',
        onDone: { target: 'loaded', actions: 'showHistory' },
        onError: 'failed',
      },
    },
    // a resync while the history is on its way: the load covers it
    loaded: {
      meta: { invariants: { 'the history is in': ({ children }: Snap) => !('history' in children) } },
      on: { 'socket.resynced': { actions: 'readGap' } },
    },
    failed: {
      meta: {
        invariants: { 'no read after an id before the history is in (the history covers it)': ({ context: c }: Snap) => Object.keys(c.reading).length === 0 },
      },
      on: { 'socket.resynced': 'loading' },
    },
  },
});

export type LiveEventsSnapshot = SnapshotFrom<typeof liveEventsMachine>;
export type LiveEventsActor = ActorRefFrom<typeof liveEventsMachine>;
