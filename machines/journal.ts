// The event journal (ARCHITECTURE.md "The journal") and its replay, by file: the recorder (journal.recorder.ts: an
// `inspect` observer keeping every event an actor received, its sender and resulting state, in a bounded ring), the
// headless replay that re-runs a journal through the same machines (journal.replay.ts: the CLI `npm run replay` and the
// console's replay screen), and here the replay screen's machine; its selectors are in journal.selectors.ts.
import { assign, fromPromise } from 'xstate';
import { lazySetup } from './defined';
import { fill, sentenceValue, type ParsedJournal, type Sentence } from '../contract';
import { errorText } from './notProvided';
import { replayJournal, type ReplayResult } from './journal.replay';

export { createJournal, weightOf, type Journal, type JournalOptions } from './journal.recorder';
export { VIEW_MACHINES, replayImpl, replayJournal, replayViews, shouldFeed, type ReplayResult, type ReplayStep } from './journal.replay';

// ---------- the replay screen's state ----------

export interface ReplayViewerContext {
  /** The loaded journal's file name, and its replay (which carries the parsed journal). */
  name: string | null;
  /** The file being replayed. */
  loading: string | null;
  result: Extract<ReplayResult, { journal: ParsedJournal }> | null;
  /** Why the last file was refused, a sentence with its key (issue 48); the previously loaded journal stays. */
  error: Sentence | null;
  /** Only this machine's steps on the timeline; null for all. */
  filter: string | null;
}

export type ReplayViewerEvent =
  { type: 'journal.load'; name: string; text: string } | { type: 'journal.errorDismissed' } | { type: 'filter.set'; actor: string | null };

/** Loads a journal as the CLI does (same parser, same replay) and keeps it for the timeline. */
export const replayViewerMachine = lazySetup({
  types: { context: {} as ReplayViewerContext, events: {} as ReplayViewerEvent },
  actors: {
    replay: fromPromise<ReplayResult, { text: string }>(async ({ input }) => replayJournal(input.text)),
  },
}).createMachine({
  id: 'replayViewer',
  context: { name: null, loading: null, result: null, error: null, filter: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'journal.load': { target: 'replaying', actions: assign({ loading: ({ event }) => event.name }) },
        'journal.errorDismissed': { actions: assign({ error: null }) },
        'filter.set': { actions: assign({ filter: ({ event }) => event.actor }) },
      },
    },
    replaying: {
      tags: ['busy'],
      invoke: {
        id: 'replay',
        src: 'replay',
        input: ({ event }) => ({ text: event.type === 'journal.load' ? event.text : '' }),
        onDone: [
          {
            guard: ({ event }) => !event.output.ok && event.output.kind === 'invalid',
            target: 'idle',
            actions: assign(({ context, event }) => ({
              error: event.output.ok
                ? null
                : fill('journal.fileRefused', '{name}: {problem}', { name: context.loading ?? '', ...sentenceValue('problem', event.output.said) }),
              loading: null,
            })),
          },
          {
            target: 'idle',
            actions: assign(({ context, event }) => ({
              result: 'journal' in event.output ? event.output : null,
              name: context.loading,
              loading: null,
              error: null,
              filter: null,
            })),
          },
        ],
        onError: {
          target: 'idle',
          actions: assign(({ event }) => ({
            error: errorText(event.error, '')
              ? fill('journal.couldNotReplayBecause', 'Could not replay the journal: {problem}', { problem: errorText(event.error, '') })
              : fill('journal.couldNotReplay', 'Could not replay the journal', {}),
            loading: null,
          })),
        },
      },
    },
  },
});
