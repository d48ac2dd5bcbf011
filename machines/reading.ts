// One read-only answer a screen shows (the division choices of a form, …), owned by the view that shows it
// (src/app/useViewActor.ts): loading → ready | failed, `read.reload` reads again. The last answer stays while the
// next one loads (no blink to a spinner). The machine's input (a zone's id, …) is the read's input. What is read is the `read` actor the caller provides (src/api/readActors.ts).
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { errorText, notProvided } from './notProvided';

export interface ReadingContext { input: unknown; output: unknown; error: string | null }
/**
 * `read.reload` reads again keeping the last answer on screen; `read.restart` drops it first (another client), with
 * a new input when it brings one.
 */
export type ReadingEvent = { type: 'read.reload' } | { type: 'read.restart'; input?: unknown };

export const readingMachine = setup({
  types: { context: {} as ReadingContext, events: {} as ReadingEvent, input: {} as unknown },
  actors: { read: notProvided<unknown, any>('read') },
}).createMachine({
  id: 'reading',
  context: ({ input }) => ({ input: input ?? null, output: null, error: null }),
  initial: 'loading',
  on: {
    'read.restart': {
      target: '.loading', reenter: true,
      actions: assign(({ context, event }) => ({ input: event.input === undefined ? context.input : event.input, output: null, error: null })),
    },
  },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'read',
        src: 'read',
        input: ({ context }: { context: ReadingContext }) => context.input,
        onDone: { target: 'ready', actions: assign({ output: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error, 'Could not load it.') }) },
      },
    },
    ready: { on: { 'read.reload': 'loading' } },
    failed: { on: { 'read.reload': 'loading' } },
  },
});

export type ReadingSnapshot = SnapshotFrom<typeof readingMachine>;
export type ReadingActor = ActorRefFrom<typeof readingMachine>;
/** The last answer (null until the first arrives). */
export const selectReadOutput = <T>(s: ReadingSnapshot) => s.context.output as T | null;
export const selectReadFailed = (s: ReadingSnapshot) => s.matches('failed');
export const selectReadBusy = (s: ReadingSnapshot) => s.hasTag('busy');
