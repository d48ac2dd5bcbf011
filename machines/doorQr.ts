// /configure/door-qr (issue 12), owned by the screen: the doors that may take rotating QR codes, turned on or off one
// command at a time (each answer emitted as `doorQr.turned` for the toast, then the list is read again); and, in the
// drawer, the code a credential shows at one door now (`doorQrCodeMachine`), read again when the server announces
// the next period or, without a notice, a moment after the shown one ends. The REST calls are the actors the caller
// provides (src/system/readActors.ts); the clock's reading comes with each answer.
import { assign, emit, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import { DOOR_QR_RENEW_GRACE_MS, type DoorQrCode, type DoorQrRow, type Sentence } from '../contract';
import { errorSaid, notProvided } from './notProvided';

export interface DoorQrTurn {
  id: number;
  on: boolean;
}
export interface DoorQrContext {
  doors: DoorQrRow[] | null;
  turning: DoorQrTurn | null;
  /** the last turn's refusal: its sentence (key and values) when the server said one, else its words */
  error: string | Sentence | null;
}
export type DoorQrEvent = { type: 'doorQr.turn'; id: number; on: boolean } | { type: 'doorQr.reload' };
export type DoorQrEmitted = { type: 'doorQr.turned'; id: number; on: boolean };

export const doorQrMachine = lazySetup({
  types: { context: {} as DoorQrContext, events: {} as DoorQrEvent, emitted: {} as DoorQrEmitted },
  actors: {
    list: notProvided<{ items: DoorQrRow[] }, void>('list'),
    turn: notProvided<unknown, DoorQrTurn>('turn'),
  },
}).createMachine({
  id: 'doorQr',
  context: { doors: null, turning: null, error: null },
  initial: 'loading',
  states: {
    // the rows read last stay on screen while they are read again
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'list',
        src: 'list',
        onDone: { target: 'ready', actions: assign({ doors: ({ event }) => event.output.items }) },
        onError: 'failed',
      },
    },
    ready: {
      on: {
        'doorQr.turn': { target: 'turning', actions: assign({ turning: ({ event }) => ({ id: event.id, on: event.on }), error: null }) },
        'doorQr.reload': 'loading',
      },
    },
    failed: { on: { 'doorQr.reload': 'loading' } },
    turning: {
      tags: ['turning'],
      invoke: {
        id: 'turn',
        src: 'turn',
        input: ({ context }) => context.turning!,
        onDone: { target: 'loading', actions: [emit(({ context }) => ({ type: 'doorQr.turned' as const, ...context.turning! })), assign({ turning: null })] },
        onError: { target: 'ready', actions: assign({ turning: null, error: ({ event }) => errorSaid(event.error, 'The command failed.') }) },
      },
    },
  },
});

export type DoorQrSnapshot = SnapshotFrom<typeof doorQrMachine>;
export type DoorQrActor = ActorRefFrom<typeof doorQrMachine>;
export const selectQrDoors = (s: DoorQrSnapshot) => s.context.doors;
export const selectQrLoading = (s: DoorQrSnapshot) => s.matches('loading');
export const selectQrLoadFailed = (s: DoorQrSnapshot) => s.matches('failed');
/** A switch is turning now (every switch waits for it). */
export const selectQrTurning = (s: DoorQrSnapshot) => s.hasTag('turning');
export const selectQrError = (s: DoorQrSnapshot) => s.context.error;

// ---------- one door's code ----------

/** A code as it arrived, with the clock's reading then (the renewal is timed from it). */
export interface DoorQrAnswer {
  code: DoorQrCode;
  now: number;
}
/** Why no code: a violation of the credential (said with the field's name) or another failure; either its words or
 *  the sentence it was said as (key and values, issue 48), which the view says in the operator's language. */
export interface DoorQrProblem {
  violation: boolean;
  message: string | Sentence;
}
export interface DoorQrCodeContext {
  doorId: number;
  credential: string | null;
  answer: DoorQrAnswer | null;
  problem: DoorQrProblem | null;
  notice: string | null;
}
export type DoorQrCodeEvent =
  | { type: 'qr.ask'; credential: string }
  /** the server's `/dynamic-qr` notice for a door (a new period, or a new secret) */
  | { type: 'qr.noticed'; doorId: number; code: string };

/** A refused credential names the field's violation; anything else its message. */
export function problemOf(error: unknown): DoorQrProblem {
  const v = (error as { violations?: Array<Partial<Sentence> & { message: string }> } | null)?.violations?.[0];
  if (!v) return { violation: false, message: errorSaid(error, 'The code could not be read.') };
  return { violation: true, message: typeof v.code === 'string' && v.values ? { message: v.message, code: v.code, values: v.values } : v.message };
}

export const doorQrCodeMachine = lazySetup({
  types: { context: {} as DoorQrCodeContext, events: {} as DoorQrCodeEvent, input: {} as { doorId: number } },
  actors: { code: notProvided<DoorQrAnswer, { doorId: number; credential: string }>('code') },
  delays: {
    // the next period's code comes with the server's notice; without one soon after this one ends, read it anyway
    renew: ({ context }) =>
      context.answer ? Math.max(0, Date.parse(context.answer.code.validTo) - context.answer.now) + DOOR_QR_RENEW_GRACE_MS : DOOR_QR_RENEW_GRACE_MS,
  },
  guards: {
    // two servers announce the same period with the same code; a new secret in the same period has a new one
    isNews: ({ context, event }) =>
      event.type === 'qr.noticed' && event.doorId === context.doorId && event.code !== context.notice && context.credential !== null,
  },
}).createMachine({
  id: 'doorQrCode',
  context: ({ input }) => ({ doorId: input.doorId, credential: null, answer: null, problem: null, notice: null }),
  initial: 'idle',
  on: {
    'qr.ask': { target: '.asking', reenter: true, actions: assign({ credential: ({ event }) => event.credential, answer: null, problem: null }) },
    'qr.noticed': {
      guard: 'isNews',
      target: '.asking',
      reenter: true,
      actions: assign({ notice: ({ event }) => (event.type === 'qr.noticed' ? event.code : null) }),
    },
  },
  states: {
    idle: {},
    asking: {
      tags: ['busy'],
      invoke: {
        id: 'code',
        src: 'code',
        input: ({ context }) => ({ doorId: context.doorId, credential: context.credential! }),
        onDone: { target: 'showing', actions: assign({ answer: ({ event }) => event.output, problem: null }) },
        onError: { target: 'failed', actions: assign({ answer: null, problem: ({ event }) => problemOf(event.error) }) },
      },
    },
    showing: { after: { renew: 'asking' } },
    failed: {},
  },
});

export type DoorQrCodeSnapshot = SnapshotFrom<typeof doorQrCodeMachine>;
export const selectQrAnswer = (s: DoorQrCodeSnapshot) => s.context.answer;
export const selectQrProblem = (s: DoorQrCodeSnapshot) => s.context.problem;
export const selectQrAsking = (s: DoorQrCodeSnapshot) => s.hasTag('busy');
