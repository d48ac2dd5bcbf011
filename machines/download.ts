// A file made by the server while the console waits (the events screen's export of its stored history): idle →
// running (the `fetch` actor the screen provides streams it and tells its progress) → idle with the file emitted for
// the view to save (`download.ready`) | failed with why. Cancel stops the fetch (its request is aborted). One at a time.
import { assign, emit, fromCallback, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import type { Sentence } from '../contract/messages';
import { invariants } from './download.invariants';

export interface DownloadProgress {
  done: number;
  total: number;
}
export interface DownloadContext {
  input: unknown;
  progress: DownloadProgress | null;
  /** why it failed: the refusal's sentence (key and values) when the server said one (issue 48), else words */
  error: string | Sentence | null;
}
export type DownloadEvent =
  | { type: 'download.start'; input: unknown }
  | { type: 'download.cancel' }
  /** from the fetch: how far it is */
  | { type: 'download.progress'; done: number; total: number }
  /** from the fetch: its end — the file, or why there is none (`cancelled`: the server's stream was ended on purpose) */
  | { type: 'download.finished'; file?: { blob: Blob; filename: string }; error?: string | Sentence; cancelled?: boolean };
export type DownloadEmitted = { type: 'download.ready'; blob: Blob; filename: string };

export const downloadMachine = lazySetup({
  types: { context: {} as DownloadContext, events: {} as DownloadEvent, emitted: {} as DownloadEmitted },
  // the screen provides it (src/system/readActors.ts): it streams the file and sends back progress and its end
  actors: {
    fetch: fromCallback<DownloadEvent, any>(() => {
      throw new Error('download: the fetch actor was not provided');
    }),
  },
}).createMachine({
  id: 'download',
  context: { input: null, progress: null, error: null },
  initial: 'idle',
  states: {
    idle: {
      meta: { invariants: invariants.idle },
      on: { 'download.start': { target: 'running', actions: assign({ input: ({ event }) => event.input, progress: { done: 0, total: 0 }, error: null }) } },
    },
    running: {
      tags: ['busy'],
      meta: { invariants: invariants.running },
      invoke: { id: 'fetch', src: 'fetch', input: ({ context }: { context: DownloadContext }) => context.input },
      on: {
        'download.progress': { actions: assign({ progress: ({ event }) => ({ done: event.done, total: event.total }) }) },
        'download.cancel': { target: 'idle', actions: assign({ progress: null }) },
        'download.finished': [
          { guard: ({ event }) => !!event.error, target: 'failed', actions: assign({ error: ({ event }) => event.error ?? null, progress: null }) },
          {
            guard: ({ event }) => !!event.file,
            target: 'idle',
            actions: [
              assign({ progress: null }),
              emit(({ event }) => ({ type: 'download.ready' as const, blob: event.file!.blob, filename: event.file!.filename })),
            ],
          },
          { target: 'idle', actions: assign({ progress: null }) },
        ],
      },
    },
    failed: {
      meta: { invariants: invariants.failed },
      on: { 'download.start': { target: 'running', actions: assign({ input: ({ event }) => event.input, progress: { done: 0, total: 0 }, error: null }) } },
    },
  },
});

export type DownloadSnapshot = SnapshotFrom<typeof downloadMachine>;
export type DownloadActor = ActorRefFrom<typeof downloadMachine>;
/** How far the running download is (null when none runs). */
export const selectDownloadProgress = (s: DownloadSnapshot) => (s.hasTag('busy') ? s.context.progress : null);
export const selectDownloadError = (s: DownloadSnapshot) => (s.matches('failed') ? s.context.error : null);
