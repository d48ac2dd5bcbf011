// Ending sessions from the Monitor sessions screens (issue 4): the operator asks to end one session (its row)
// or the selected ones, confirms, and the server ends them all or none. What "end" does is the `endSessions`
// actor the screen provides; the machine keeps the order ask → confirm → ending and tells the screen when
// sessions ended (`sessions.ended`), so the list reads its page again.
import { assign, emit, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import type { EndSessionsResult } from '../contract';
import type { Sentence } from '../contract';
import { errorSaid, notProvided } from './notProvided';
import { invariants } from './sessionEnd.invariants';

export interface SessionEndContext {
  ids: number[];
  /** why it failed: the refusal's sentence (key and values) when the server said one (issue 48: errorSaid), else words */
  error: string | Sentence | null;
  result: EndSessionsResult | null;
}

export type SessionEndEvent = { type: 'sessions.end'; ids: number[] } | { type: 'sessions.confirm' } | { type: 'sessions.cancel' };

export type SessionEndEmitted = { type: 'sessions.ended'; ids: number[]; result: EndSessionsResult };

/** Edge check of a view's request: a non-empty list of positive whole ids. */
export const isValidSessionIds = (ids: unknown): ids is number[] => Array.isArray(ids) && ids.length > 0 && ids.every((id) => Number.isInteger(id) && id > 0);

const ask = {
  'sessions.end': [{ guard: 'validIds', target: '#sessionEnd.confirming', actions: 'rememberIds' }, { actions: 'rejectInput' }],
} as const;

export const sessionEndMachine = lazySetup({
  types: { context: {} as SessionEndContext, events: {} as SessionEndEvent, emitted: {} as SessionEndEmitted },
  actors: { endSessions: notProvided<EndSessionsResult, { ids: number[] }>('endSessions') },
  guards: { validIds: ({ event }) => event.type === 'sessions.end' && isValidSessionIds(event.ids) },
  actions: {
    rememberIds: assign(({ event }) => ({ ids: event.type === 'sessions.end' ? [...new Set(event.ids)] : [], error: null })),
    rejectInput: assign(({ event }) => ({ error: `Ignored an invalid ${event.type} request` })),
  },
}).createMachine({
  id: 'sessionEnd',
  context: { ids: [], error: null, result: null },
  initial: 'idle',
  meta: { invariants: invariants.machine },
  states: {
    idle: { meta: { invariants: invariants.idle }, on: ask },
    confirming: {
      meta: { invariants: invariants.confirming },
      on: {
        'sessions.confirm': 'ending',
        'sessions.cancel': { target: 'idle', actions: assign({ ids: [] }) },
      },
    },
    ending: {
      tags: ['busy'],
      meta: { invariants: invariants.ending },
      invoke: {
        id: 'endSessions',
        src: 'endSessions',
        input: ({ context }) => ({ ids: context.ids }),
        onDone: {
          target: 'idle',
          actions: [
            assign({ result: ({ event }) => event.output, error: null }),
            emit(({ context, event }) => ({ type: 'sessions.ended' as const, ids: context.ids, result: event.output })),
            assign({ ids: [] }),
          ],
        },
        // all or nothing on the server: nothing ended, the message says why (e.g. your own session)
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorSaid(event.error, 'Could not end the sessions'), ids: [] }) },
      },
    },
    failed: { meta: { invariants: invariants.failed }, on: ask },
  },
});

export type SessionEndSnapshot = SnapshotFrom<typeof sessionEndMachine>;
export type SessionEndActor = ActorRefFrom<typeof sessionEndMachine>;
/** The ids waiting for the operator's confirmation (empty unless confirming or ending). */
export const selectPendingIds = (s: SessionEndSnapshot) => (s.matches('confirming') || s.matches('ending') ? s.context.ids : EMPTY);
export const selectIsConfirming = (s: SessionEndSnapshot) => s.matches('confirming') || s.matches('ending');
export const selectIsEnding = (s: SessionEndSnapshot) => s.hasTag('busy');
export const selectEndError = (s: SessionEndSnapshot) => s.context.error;
const EMPTY: number[] = [];
