// One read-only answer a screen shows live (the dashboard's figures, issue 10): the generic reading (machines/reading.ts:
// loading → ready | failed, `read.reload`, `read.restart`, the last answer kept while the next loads) that also reads
// again after `read.changed` — a real-time notice said something changed — at most every DASHBOARD_LIVE_MS, and never
// while a read is still on its way: a slow answer is not cancelled by the next read, the read is owed until it is in.
// The waiting is a delayed event (the clock is the actor system's, simulated in tests); the read is the provided `read`.
import { assign, enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { DASHBOARD_LIVE_MS } from '../contract';
import { errorText, notProvided } from './notProvided';

export interface LiveReadingContext {
  input: unknown;
  output: unknown;
  error: string | null;
  /** a `live.due` is on its way (one at a time: notices during the wait join it) */
  waiting: boolean;
  /** the wait ended while a read was on its way: read again once it is in */
  owed: boolean;
}
export type LiveReadingEvent =
  | { type: 'read.reload' }
  | { type: 'read.restart'; input?: unknown }
  /** something the answer shows changed (a real-time notice) */
  | { type: 'read.changed' }
  /** the wait after a change is over (sent by the machine to itself, delayed) */
  | { type: 'live.due' };

export const liveReadingMachine = setup({
  types: { context: {} as LiveReadingContext, events: {} as LiveReadingEvent, input: {} as unknown },
  actors: { read: notProvided<unknown, any>('read') },
  delays: { live: DASHBOARD_LIVE_MS },
  guards: {
    owed: ({ context }) => context.owed,
  },
  actions: {
    /** start the wait, unless one is on its way already */
    wait: enqueueActions(({ context, enqueue }) => {
      if (context.waiting) return;
      enqueue.assign({ waiting: true });
      enqueue.raise({ type: 'live.due' }, { delay: 'live' });
    }),
  },
}).createMachine({
  id: 'liveReading',
  context: ({ input }) => ({ input: input ?? null, output: null, error: null, waiting: false, owed: false }),
  initial: 'loading',
  on: {
    'read.changed': { actions: 'wait' },
    'read.restart': {
      target: '.loading', reenter: true,
      actions: assign(({ context, event }) => ({ input: event.input === undefined ? context.input : event.input, output: null, error: null })),
    },
  },
  states: {
    loading: {
      tags: ['busy'],
      on: { 'live.due': { actions: assign({ waiting: false, owed: true }) } },
      invoke: {
        id: 'read',
        src: 'read',
        input: ({ context }: { context: LiveReadingContext }) => context.input,
        onDone: [
          { guard: 'owed', target: 'ready', actions: [assign({ output: ({ event }) => event.output, error: null, owed: false }), 'wait'] },
          { target: 'ready', actions: assign({ output: ({ event }) => event.output, error: null }) },
        ],
        onError: [
          { guard: 'owed', target: 'failed', actions: [assign({ error: ({ event }) => errorText(event.error, 'Could not load it.'), owed: false }), 'wait'] },
          { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error, 'Could not load it.') }) },
        ],
      },
    },
    ready: { on: { 'read.reload': 'loading', 'live.due': { target: 'loading', actions: assign({ waiting: false }) } } },
    failed: { on: { 'read.reload': 'loading', 'live.due': { target: 'loading', actions: assign({ waiting: false }) } } },
  },
});

export type LiveReadingSnapshot = SnapshotFrom<typeof liveReadingMachine>;
export type LiveReadingActor = ActorRefFrom<typeof liveReadingMachine>;
