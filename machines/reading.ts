// One read-only answer a screen shows (the division choices of a form, the dashboard's figures, …), owned by the view
// that shows it (src/app/useViewActor.ts): loading → ready | failed, `read.reload` reads again. The last answer stays
// while the next one loads (no blink to a spinner). A reload while a read is on its way reads again once that one is in:
// the read in flight may have started before the change the reload was sent for. The machine's input (a zone's id, …) is the read's input. What is
// read is the `read` actor the caller provides (src/system/readActors.ts).
// A live reading (the dashboard, issue 10) is sent `read.changed` instead of `read.reload` when a real-time notice says
// something changed: it reads again at most every DASHBOARD_LIVE_MS, and never while a read is still on its way — a
// slow answer is not cancelled by the next read, the read is owed until it is in. The waiting is a delayed event (the
// clock is the actor system's, simulated in tests).
import { assign, enqueueActions, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import { DASHBOARD_LIVE_MS } from '../contract';
import type { Sentence } from '../contract/messages';
import { errorSaid, notProvided } from './notProvided';
import { invariants } from './reading.invariants';

export interface ReadingContext {
  input: unknown;
  output: unknown;
  /** why it failed: the refusal's sentence (key and values) when the server said one (issue 48: errorSaid), else words */
  error: string | Sentence | null;
  /** a `live.due` is on its way (one at a time: changes during the wait join it) */
  waiting: boolean;
  /** the wait ended while a read was on its way: read again once it is in */
  owed: boolean;
  /** a reload came while a read was on its way: that read may have started before the change the reload is for (a
   *  door held by a threat level set meanwhile), so its answer is shown and read again at once */
  stale: boolean;
}
/**
 * `read.reload` reads again keeping the last answer on screen; `read.restart` drops it first (another client), with
 * a new input when it brings one; `read.changed` (a live reading's real-time notice) reads again once the wait is over.
 */
export type ReadingEvent =
  | { type: 'read.reload' }
  | { type: 'read.restart'; input?: unknown }
  /** something the answer shows changed (a real-time notice) */
  | { type: 'read.changed' }
  /** the wait after a change is over (sent by the machine to itself, delayed) */
  | { type: 'live.due' };

const failedText = (error: unknown) => errorSaid(error, 'Could not load it.');

export const readingMachine = lazySetup({
  types: { context: {} as ReadingContext, events: {} as ReadingEvent, input: {} as unknown },
  actors: { read: notProvided<unknown, any>('read') },
  delays: { live: DASHBOARD_LIVE_MS },
  guards: {
    owed: ({ context }) => context.owed,
    stale: ({ context }) => context.stale,
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
  id: 'reading',
  context: ({ input }) => ({ input: input ?? null, output: null, error: null, waiting: false, owed: false, stale: false }),
  initial: 'loading',
  meta: { invariants: invariants.machine },
  on: {
    'read.changed': { actions: 'wait' },
    'read.restart': {
      target: '.loading',
      reenter: true,
      actions: assign(({ context, event }) => ({ input: event.input === undefined ? context.input : event.input, output: null, error: null, stale: false })),
    },
  },
  states: {
    loading: {
      tags: ['busy'],
      meta: { invariants: invariants.loading },
      on: { 'live.due': { actions: assign({ waiting: false, owed: true }) }, 'read.reload': { actions: assign({ stale: true }) } },
      invoke: {
        id: 'read',
        src: 'read',
        input: ({ context }: { context: ReadingContext }) => context.input,
        onDone: [
          // the read again at once also pays what the end of a wait owed
          {
            guard: 'stale',
            target: 'loading',
            reenter: true,
            actions: assign({ output: ({ event }) => event.output, error: null, owed: false, stale: false }),
          },
          { guard: 'owed', target: 'ready', actions: [assign({ output: ({ event }) => event.output, error: null, owed: false }), 'wait'] },
          { target: 'ready', actions: assign({ output: ({ event }) => event.output, error: null }) },
        ],
        onError: [
          { guard: 'stale', target: 'loading', reenter: true, actions: assign({ owed: false, stale: false }) },
          { guard: 'owed', target: 'failed', actions: [assign({ error: ({ event }) => failedText(event.error), owed: false }), 'wait'] },
          { target: 'failed', actions: assign({ error: ({ event }) => failedText(event.error) }) },
        ],
      },
    },
    ready: { meta: { invariants: invariants.ready }, on: { 'read.reload': 'loading', 'live.due': { target: 'loading', actions: assign({ waiting: false }) } } },
    failed: {
      meta: { invariants: invariants.failed },
      on: { 'read.reload': 'loading', 'live.due': { target: 'loading', actions: assign({ waiting: false }) } },
    },
  },
});

export type ReadingSnapshot = SnapshotFrom<typeof readingMachine>;
export type ReadingActor = ActorRefFrom<typeof readingMachine>;
/** The last answer (null until the first arrives). */
export const selectReadOutput = <T>(s: ReadingSnapshot) => s.context.output as T | null;
export const selectReadFailed = (s: ReadingSnapshot) => s.matches('failed');
export const selectReadBusy = (s: ReadingSnapshot) => s.hasTag('busy');
/**
 * What a real-time notice sends a reading: `read.reload` (read again at once), or for a live one `read.changed` — and
 * nothing while its wait is on its way, when it would change nothing: the dashboard kept alive in a tab hears every
 * /events message, thousands a second on a busy site, and each event sent would be journaled.
 */
export const readingNotice = (s: ReadingSnapshot, live: boolean): ReadingEvent | null =>
  !live ? { type: 'read.reload' } : s.context.waiting ? null : { type: 'read.changed' };
