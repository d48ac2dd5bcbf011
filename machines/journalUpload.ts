// Session replay upload (§9 "session replay rate 0.1", issue 4): at sign-in a session is drawn (one in ten) and,
// when sampled, this actor sends the journal entries recorded since its last successful upload to the server
// every JOURNAL_UPLOAD_INTERVAL_MS. A failure keeps the entries (nothing advances) and retries later with a
// doubling delay; a refusal that no retry can fix (400, 401, 403, 409, 413) stops the recording. Sign-out flushes
// once, then stops. It runs beside the actor system, not inside it, so its own timers and uploads never fill the
// journal it uploads. The draw, the journal, the clock and the network are injected (src/system/journalUpload.ts).
import type { Sentence } from '../contract/messages';
import { assign, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import { uploadDelayMs } from '../contract';
import { errorSaid, notProvided } from './notProvided';

export interface DecideInput {
  token: string;
  /** A client switch inside a sampled or unsampled session keeps its draw; null at sign-in (draw, or reuse a reload's). */
  carried: boolean | null;
}
/** Whether this session is recorded, and the id of this page's recording of it. */
export interface Decision {
  sampled: boolean;
  recording: string;
}

export interface UploadInput {
  token: string;
  recording: string;
  /** Send the entries with a seq above this … */
  after: number;
  /** … and not above this (the last entry of a session that ended); null: everything recorded so far. */
  upTo: number | null;
}
/** The highest seq the server now holds (`after` when there was nothing to send). */
export interface UploadOutput {
  through: number;
}
/** What an upload rejects with: `permanent` when retrying cannot help (the server refused the chunk or the session). */
export interface UploadFailure {
  message: string;
  status?: number;
  permanent: boolean;
}

export type JournalUploadEvent =
  /** The glue saw a session begin (sign-in, restored session, or a client switch: `switched`), at journal seq `atSeq`. */
  | { type: 'session.started'; token: string; atSeq: number; switched: boolean }
  /** The session ended; its last journal entry is `atSeq`. */
  | { type: 'session.ended'; atSeq: number }
  /** Send now (the page is being hidden). */
  | { type: 'journal.flush' };

export interface JournalUploadContext {
  token: string | null;
  recording: string | null;
  sampled: boolean | null;
  /** Entries with a seq above this belong to the current session's recording. */
  floor: number;
  /** The highest seq the server holds for the current recording. */
  sent: number;
  /** Where the previous session of this page ended: the next one's recording starts after it (no user's events in another's). */
  endedAt: number;
  /** Upload bound of the flush at sign-out. */
  upTo: number | null;
  failures: number;
  /** Why the recording stopped, when the server refused it. */
  stopped: string | Sentence | null;
}

const isPermanent = (error: unknown) => !!error && typeof error === 'object' && (error as Partial<UploadFailure>).permanent === true;

export const journalUploadMachine = lazySetup({
  types: {
    context: {} as JournalUploadContext,
    events: {} as JournalUploadEvent,
    tags: {} as 'recording' | 'busy' | 'flushing',
  },
  actors: {
    decide: notProvided<Decision, DecideInput>('decide'),
    upload: notProvided<UploadOutput, UploadInput>('upload'),
  },
  delays: {
    nextUpload: ({ context }) => uploadDelayMs(context.failures),
  },
  guards: {
    sampled: ({ event }) => (event as { output?: Decision }).output?.sampled === true,
    permanent: ({ event }) => isPermanent((event as { error?: unknown }).error),
  },
  actions: {
    begin: assign(({ context, event }) => {
      if (event.type !== 'session.started') return {};
      return {
        token: event.token,
        recording: null,
        // a new sign-in records from where the page's previous session ended (or the page's start); a client
        // switch is a new tenant's session: from the switch on
        floor: event.switched ? event.atSeq : context.endedAt,
        failures: 0,
        stopped: null,
        upTo: null,
      };
    }),
    end: assign(({ event }) => (event.type === 'session.ended' ? { endedAt: event.atSeq, upTo: event.atSeq } : {})),
    forget: assign({ token: null, recording: null, sampled: null, upTo: null, failures: 0 }),
  },
}).createMachine({
  id: 'journalUpload',
  context: { token: null, recording: null, sampled: null, floor: 0, sent: 0, endedAt: 0, upTo: null, failures: 0, stopped: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'session.started': { target: 'deciding', actions: 'begin' } },
    },
    deciding: {
      tags: ['busy'],
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context, event }) => ({
          token: context.token ?? '',
          carried: event.type === 'session.started' && event.switched ? context.sampled : null,
        }),
        onDone: [
          {
            guard: 'sampled',
            target: 'recording',
            actions: assign(({ context, event }) => ({ sampled: true, recording: event.output.recording, sent: context.floor })),
          },
          { target: 'unsampled', actions: assign({ sampled: false }) },
        ],
        // no draw, no recording: the console is never held up by it
        onError: { target: 'unsampled', actions: assign({ sampled: false }) },
      },
      on: {
        'session.started': { target: 'deciding', reenter: true, actions: 'begin' },
        'session.ended': { target: 'idle', actions: ['end', 'forget'] },
      },
    },
    unsampled: {
      on: {
        'session.started': { target: 'deciding', actions: 'begin' },
        'session.ended': { target: 'idle', actions: ['end', 'forget'] },
      },
    },
    recording: {
      tags: ['recording'],
      initial: 'waiting',
      on: {
        'session.started': { target: 'deciding', actions: 'begin' },
        'session.ended': { target: 'flushing', actions: 'end' },
      },
      states: {
        waiting: {
          after: { nextUpload: 'uploading' },
          on: { 'journal.flush': 'uploading' },
        },
        uploading: {
          tags: ['busy'],
          invoke: {
            id: 'upload',
            src: 'upload',
            input: ({ context }) => ({ token: context.token ?? '', recording: context.recording ?? '', after: context.sent, upTo: null }),
            onDone: { target: 'waiting', actions: assign(({ context, event }) => ({ sent: Math.max(context.sent, event.output.through), failures: 0 })) },
            onError: [
              {
                guard: 'permanent',
                target: '#journalUpload.stopped',
                actions: assign(({ event }) => ({ stopped: errorSaid(event.error, 'The server refused this recording.') })),
              },
              // the entries stay in the journal; the next attempt sends them, later and later
              { target: 'waiting', actions: assign(({ context }) => ({ failures: context.failures + 1 })) },
            ],
          },
        },
      },
    },
    flushing: {
      // sign-out: one last upload up to the session's last entry, then nothing more
      tags: ['flushing', 'busy'],
      invoke: {
        id: 'flush',
        src: 'upload',
        input: ({ context }) => ({ token: context.token ?? '', recording: context.recording ?? '', after: context.sent, upTo: context.upTo }),
        onDone: { target: 'idle', actions: ['forget'] },
        onError: { target: 'idle', actions: ['forget'] },
      },
      on: { 'session.started': { target: 'deciding', actions: 'begin' } },
    },
    stopped: {
      on: {
        'session.started': { target: 'deciding', actions: 'begin' },
        'session.ended': { target: 'idle', actions: ['end', 'forget'] },
      },
    },
  },
});

export type JournalUploadActor = ActorRefFrom<typeof journalUploadMachine>;
export type JournalUploadSnapshot = SnapshotFrom<typeof journalUploadMachine>;
