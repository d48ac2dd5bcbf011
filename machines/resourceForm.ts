// One add/edit form of a resource: load (edit), submit, server violations (400) back per field, saved; on a
// loaded record, its named actions (form.act: approve a request), the record as the server answers it after.
import { assertEvent, assign, emit, type ActorRefFrom, type PromiseActorLogic, type SnapshotFrom } from 'xstate';
import { lazySetup, provided } from './defined';
import type { Sentence, Violation } from '../contract';
import { errorSaid, notProvided } from './notProvided';

export interface ResourceFormContext {
  /** null while adding; the saved record's id afterwards. */
  id: number | null;
  /** The loaded record (edit) or null (add): what form.reset returns to. */
  values: unknown;
  violations: Violation[];
  /** what went wrong: the refusal's sentence (key and values) when the server said one (issue 48), else its words */
  error: string | Sentence | null;
  /** The record action running or last run (form.act). */
  action: string | null;
  /** The values of the last form.submit, as sent: a form that stays open after its save starts from them again. */
  sent: unknown;
}

export interface ResourceFormInput {
  id?: number;
  resource?: string;
}

export type ResourceFormEvent =
  | { type: 'form.submit'; values: unknown }
  | { type: 'form.reset' }
  | { type: 'form.reload' }
  /** The server changed the record (its change notice): read it again without a spinner; typed values stay. */
  | { type: 'form.refresh' }
  /** A named action of the record (a request's approval): the server answers the row as it is after it. */
  | { type: 'form.act'; action: string; input: Record<string, unknown> };

/** `shown`: values of the answer shown once (a new API key), when the resource has any. */
export type ResourceFormEmitted =
  { type: 'form.saved'; id: number; shown?: Record<string, string> } | { type: 'form.acted'; action: string; shown?: Record<string, string> };

export interface SaveInput {
  id: number | null;
  values: unknown;
}
export interface Saved {
  id: number;
  shown?: Record<string, string>;
}
export interface ActInput {
  id: number;
  action: string;
  input: Record<string, unknown>;
}
/** What an action answered: the row as it is after it, and (issue 47: a controller's new edge key) the values shown
 *  once, kept apart so the context (and the journal) never holds them. */
export interface Acted {
  row: unknown;
  shown?: Record<string, string>;
}

/** The violations list of a rejected save (the api client passes the 400 body's list through), else []. */
export function violationsOf(error: unknown): Violation[] {
  const v = error && typeof error === 'object' ? (error as { violations?: unknown }).violations : undefined;
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is Violation => !!x && typeof x.field === 'string' && typeof x.message === 'string');
}

export const resourceFormMachine = lazySetup({
  types: {
    context: {} as ResourceFormContext,
    events: {} as ResourceFormEvent,
    input: {} as ResourceFormInput,
    emitted: {} as ResourceFormEmitted,
    tags: {} as 'busy',
  },
  actors: {
    load: notProvided<unknown, { id: number }>('load'),
    save: notProvided<Saved, SaveInput>('save'),
    act: notProvided<Acted, ActInput>('act'),
  },
  guards: {
    editing: ({ context }) => context.id !== null,
    /** A record loaded from the server (not an add form, even one saved a moment ago). */
    loaded: ({ context }) => context.id !== null && context.values !== null,
    /** The record read again was not saved by anyone since it was loaded (the same updatedAt, or none kept): only what
     *  the server derives changed (a roll-out's progress), so the page may show it; a record saved meanwhile is left
     *  for the save's own conflict (409) to tell, never taken silently under the user's edits. */
    unchanged: ({ context, event }) => {
      const was = (context.values as { updatedAt?: unknown } | null)?.updatedAt;
      const now = ((event as unknown as { output?: { updatedAt?: unknown } }).output ?? {}).updatedAt;
      return was === now;
    },
  },
  actions: {
    clearProblems: assign({ violations: [], error: null }),
    keepSent: assign(({ event }) => {
      assertEvent(event, 'form.submit');
      return { sent: event.values };
    }),
  },
}).createMachine({
  id: 'resourceForm',
  context: ({ input }) => ({
    id: Number.isInteger(input?.id) && (input.id as number) > 0 ? (input.id as number) : null,
    values: null,
    violations: [],
    error: null,
    action: null,
    sent: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'editing', target: 'loading' }, { target: 'editing' }],
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => ({ id: context.id ?? 0 }),
        onDone: { target: 'editing', actions: assign(({ event }) => ({ values: event.output, error: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not load the record') })) },
      },
    },
    failed: {
      on: { 'form.reload': { target: 'loading', actions: 'clearProblems' } },
    },
    editing: {
      on: {
        'form.submit': { target: 'saving', actions: ['clearProblems', 'keepSent'] },
        'form.reset': { actions: 'clearProblems' },
        'form.act': { guard: 'loaded', target: 'acting', actions: ['clearProblems', assign(({ event }) => ({ action: event.action }))] },
        'form.refresh': { guard: 'loaded', target: 'refreshing' },
      },
    },
    // issue 50: a change notice of this record: read again quietly (no busy tag: the form stays as it is meanwhile)
    refreshing: {
      invoke: {
        id: 'refresh',
        src: 'load',
        input: ({ context }) => ({ id: context.id ?? 0 }),
        onDone: [{ guard: 'unchanged', target: 'editing', actions: assign(({ event }) => ({ values: event.output })) }, { target: 'editing' }],
        onError: { target: 'editing' },
      },
      on: {
        'form.submit': { target: 'saving', actions: ['clearProblems', 'keepSent'] },
        'form.reset': { target: 'editing', actions: 'clearProblems' },
        'form.act': { target: 'acting', actions: ['clearProblems', assign(({ event }) => ({ action: event.action }))] },
        'form.refresh': { target: 'refreshing', reenter: true },
      },
    },
    acting: {
      tags: ['busy'],
      invoke: {
        id: 'act',
        src: 'act',
        input: ({ context, event }) => {
          assertEvent(event, 'form.act');
          return { id: context.id ?? 0, action: event.action, input: event.input };
        },
        // the record as the action left it (a status, who decided): the page shows it, nothing typed is lost
        onDone: {
          target: 'editing',
          actions: [
            assign(({ event }) => ({ values: event.output.row })),
            emit(({ context, event }) =>
              event.output.shown
                ? { type: 'form.acted' as const, action: context.action ?? '', shown: event.output.shown }
                : { type: 'form.acted' as const, action: context.action ?? '' },
            ),
          ],
        },
        onError: {
          target: 'editing',
          actions: assign(({ event }) => {
            const violations = violationsOf(event.error);
            return { violations, error: violations.length ? null : errorSaid(event.error, 'Could not do that') };
          }),
        },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context, event }) => {
          assertEvent(event, 'form.submit');
          return { id: context.id, values: event.values };
        },
        onDone: {
          target: 'saved',
          actions: [
            assign(({ event }) => ({ id: event.output.id })),
            emit(({ event }) =>
              event.output.shown
                ? { type: 'form.saved' as const, id: event.output.id, shown: event.output.shown }
                : { type: 'form.saved' as const, id: event.output.id },
            ),
          ],
        },
        onError: {
          target: 'editing',
          actions: assign(({ event }) => {
            const violations = violationsOf(event.error);
            return { violations, error: violations.length ? null : errorSaid(event.error, 'Could not save') };
          }),
        },
      },
    },
    saved: {
      on: {
        'form.submit': { target: 'saving', actions: ['clearProblems', 'keepSent'] },
        'form.reset': { target: 'editing', actions: 'clearProblems' },
        // a form that stays open after a save (a tenant's settings) reads the record again, as the server keeps it
        'form.reload': { guard: 'editing', target: 'loading', actions: 'clearProblems' },
      },
    },
  },
});

export function createResourceFormMachine(actors: {
  load?: PromiseActorLogic<unknown, { id: number }>;
  save: PromiseActorLogic<Saved, SaveInput>;
  act?: PromiseActorLogic<Acted, ActInput>;
}) {
  return provided(resourceFormMachine, {
    actors: { save: actors.save, ...(actors.load ? { load: actors.load } : {}), ...(actors.act ? { act: actors.act } : {}) },
  });
}

export type ResourceFormActor = ActorRefFrom<typeof resourceFormMachine>;
export type ResourceFormSnapshot = SnapshotFrom<typeof resourceFormMachine>;
