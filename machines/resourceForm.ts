// One add/edit form of a resource: load (edit), submit, server violations (400) back per field, saved.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type PromiseActorLogic, type SnapshotFrom } from 'xstate';
import type { Violation } from '../contract';
import { errorText, notProvided } from './notProvided';

export interface ResourceFormContext {
  /** null while adding; the saved record's id afterwards. */
  id: number | null;
  /** The loaded record (edit) or null (add): what form.reset returns to. */
  values: unknown;
  violations: Violation[];
  error: string | null;
}

export interface ResourceFormInput { id?: number; resource?: string }

export type ResourceFormEvent =
  | { type: 'form.submit'; values: unknown }
  | { type: 'form.reset' }
  | { type: 'form.reload' };

/** `shown`: values of the answer shown once (a new API key), when the resource has any. */
export type ResourceFormEmitted = { type: 'form.saved'; id: number; shown?: Record<string, string> };

export interface SaveInput { id: number | null; values: unknown }
export interface Saved { id: number; shown?: Record<string, string> }

/** The violations list of a rejected save (the api client passes the 400 body's list through), else []. */
export function violationsOf(error: unknown): Violation[] {
  const v = error && typeof error === 'object' ? (error as { violations?: unknown }).violations : undefined;
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is Violation => !!x && typeof x.field === 'string' && typeof x.message === 'string');
}

export const resourceFormMachine = setup({
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
  },
  guards: {
    editing: ({ context }) => context.id !== null,
  },
  actions: {
    clearProblems: assign({ violations: [], error: null }),
  },
}).createMachine({
  id: 'resourceForm',
  context: ({ input }) => ({
    id: Number.isInteger(input?.id) && (input.id as number) > 0 ? (input.id as number) : null,
    values: null,
    violations: [],
    error: null,
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
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: errorText(event.error, 'Could not load the record') })) },
      },
    },
    failed: {
      on: { 'form.reload': { target: 'loading', actions: 'clearProblems' } },
    },
    editing: {
      on: {
        'form.submit': { target: 'saving', actions: 'clearProblems' },
        'form.reset': { actions: 'clearProblems' },
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
            emit(({ event }) => (event.output.shown ? { type: 'form.saved' as const, id: event.output.id, shown: event.output.shown } : { type: 'form.saved' as const, id: event.output.id })),
          ],
        },
        onError: {
          target: 'editing',
          actions: assign(({ event }) => {
            const violations = violationsOf(event.error);
            return { violations, error: violations.length ? null : errorText(event.error, 'Could not save') };
          }),
        },
      },
    },
    saved: {
      on: {
        'form.submit': { target: 'saving', actions: 'clearProblems' },
        'form.reset': { target: 'editing', actions: 'clearProblems' },
      },
    },
  },
});

export function createResourceFormMachine(actors: {
  load?: PromiseActorLogic<unknown, { id: number }>;
  save: PromiseActorLogic<Saved, SaveInput>;
}) {
  return resourceFormMachine.provide({ actors: { save: actors.save, ...(actors.load ? { load: actors.load } : {}) } });
}

export type ResourceFormActor = ActorRefFrom<typeof resourceFormMachine>;
export type ResourceFormSnapshot = SnapshotFrom<typeof resourceFormMachine>;
