// Issue 49: the second step of a sign-in (docs/MFA.md), invoked by the session machine (machines/session.ts) when the
// server answers a password with a challenge: ask for a code of the authenticator app (or a recovery code, or a
// passkey), or, where the client requires MFA of an account that has none, enrol one before anything else, show the
// recovery codes once, and only then give the session to the session machine. Its output is the session (the server's
// sign-in answer), or null when the operator goes back to the password.
import { assertEvent, assign, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import type { MfaChallenge, TotpEnrolment } from '../contract';
import { errorSaid, notProvided } from './notProvided';
import * as held from './session.mfa.invariants';
import type { Authenticated } from './session.types';
import type { EnrolmentAnswer, MfaSignInContext, MfaSignInEvent } from './session.mfa.types';

export type { EnrolmentAnswer, MfaAsked, MfaSignInContext, MfaSignInEvent } from './session.mfa.types';

const codeBlank = ({ event }: { event: MfaSignInEvent }) => event.type === 'mfa.submitCode' && event.code.trim().length < 6;

export const mfaSignInMachine = lazySetup({
  types: {
    context: {} as MfaSignInContext,
    events: {} as MfaSignInEvent,
    input: {} as MfaChallenge,
    output: {} as Authenticated | null,
    tags: {} as 'busy',
  },
  actors: {
    /** POST second-factor {ticket, code} → the session. */
    verifyCode: notProvided<Authenticated, { ticket: string; code: string }>('verifyCode'),
    /** The browser's passkey ceremony and its check at the server → the session. */
    signInWithPasskey: notProvided<Authenticated, { ticket: string }>('signInWithPasskey'),
    /** A new TOTP secret and its QR code, for the ticket. */
    beginTotp: notProvided<TotpEnrolment, { ticket: string }>('beginTotp'),
    /** The enrolment confirmed with a code → recovery codes and the session. */
    confirmTotp: notProvided<EnrolmentAnswer, { ticket: string; code: string }>('confirmTotp'),
    /** A passkey registered with the browser's ceremony → recovery codes and the session. */
    registerPasskey: notProvided<EnrolmentAnswer, { ticket: string }>('registerPasskey'),
  },
  actions: {
    keepEnrolment: assign(({ event }) => {
      const out = (event as unknown as { output: EnrolmentAnswer }).output;
      return { recoveryCodes: out.recoveryCodes, session: out.session ?? null, enrolment: null };
    }),
  },
}).createMachine({
  id: 'mfaSignIn',
  context: ({ input }) => ({
    ticket: input.ticket,
    enrol: input.mfa === 'enrol',
    methods: input.methods,
    error: null,
    enrolment: null,
    recoveryCodes: null,
    session: null,
  }),
  initial: 'starting',
  output: ({ context }) => context.session,
  on: { 'mfa.cancel': { target: '.cancelled', actions: assign({ session: null, enrolment: null, recoveryCodes: null, error: null }) } },
  states: {
    starting: {
      always: [{ guard: ({ context }) => context.enrol, target: 'enrolling' }, { target: 'asking' }],
    },
    // the account has a factor: a code of the app or a recovery code, or its passkey
    asking: {
      meta: { invariants: held.askingInvariants },
      on: {
        'mfa.submitCode': [
          { guard: codeBlank, actions: assign({ error: 'Enter the six digits the authenticator app shows, or a recovery code' }) },
          { target: 'verifying', actions: assign({ error: null }) },
        ],
        'mfa.usePasskey': { guard: ({ context }) => context.methods.includes('passkey'), target: 'passkey', actions: assign({ error: null }) },
      },
    },
    verifying: {
      tags: ['busy'],
      meta: { invariants: held.askingInvariants },
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context, event }) => {
          assertEvent(event, 'mfa.submitCode');
          return { ticket: context.ticket, code: event.code.trim() };
        },
        onDone: { target: 'done', actions: assign(({ event }) => ({ session: event.output })) },
        onError: { target: 'asking', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'The code was not accepted') })) },
      },
    },
    passkey: {
      tags: ['busy'],
      meta: { invariants: held.askingInvariants },
      invoke: {
        id: 'signInWithPasskey',
        src: 'signInWithPasskey',
        input: ({ context }) => ({ ticket: context.ticket }),
        onDone: { target: 'done', actions: assign(({ event }) => ({ session: event.output })) },
        onError: { target: 'asking', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'The passkey was not accepted') })) },
      },
    },
    // the client requires MFA and the account has none: an authenticator app (QR code) or a passkey, before anything else
    enrolling: {
      meta: { invariants: held.enrollingInvariants },
      initial: 'choosing',
      states: {
        choosing: {
          on: {
            'mfa.enrolApp': { target: 'beginning', actions: assign({ error: null }) },
            'mfa.enrolPasskey': { target: 'registering', actions: assign({ error: null }) },
          },
        },
        beginning: {
          tags: ['busy'],
          invoke: {
            id: 'beginTotp',
            src: 'beginTotp',
            input: ({ context }) => ({ ticket: context.ticket }),
            onDone: { target: 'scanning', actions: assign(({ event }) => ({ enrolment: event.output })) },
            onError: { target: 'choosing', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'The enrolment could not begin') })) },
          },
        },
        scanning: {
          meta: { invariants: held.scanningInvariants },
          on: {
            'mfa.submitCode': [
              { guard: codeBlank, actions: assign({ error: 'Enter the six digits the authenticator app shows' }) },
              { target: 'confirming', actions: assign({ error: null }) },
            ],
          },
        },
        confirming: {
          tags: ['busy'],
          meta: { invariants: held.scanningInvariants },
          invoke: {
            id: 'confirmTotp',
            src: 'confirmTotp',
            input: ({ context, event }) => {
              assertEvent(event, 'mfa.submitCode');
              return { ticket: context.ticket, code: event.code.trim() };
            },
            onDone: { target: '#mfaSignIn.keepingCodes', actions: 'keepEnrolment' },
            onError: { target: 'scanning', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'The code was not accepted') })) },
          },
        },
        registering: {
          tags: ['busy'],
          invoke: {
            id: 'registerPasskey',
            src: 'registerPasskey',
            input: ({ context }) => ({ ticket: context.ticket }),
            onDone: { target: '#mfaSignIn.keepingCodes', actions: 'keepEnrolment' },
            onError: { target: 'choosing', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'The passkey was not registered') })) },
          },
        },
      },
    },
    // the recovery codes are shown once: the session starts when the operator says they are kept
    keepingCodes: {
      meta: { invariants: held.keepingCodesInvariants },
      on: { 'mfa.codesKept': { target: 'done', actions: assign({ recoveryCodes: null, enrolment: null }) } },
    },
    done: { type: 'final', meta: { invariants: held.doneInvariants } },
    cancelled: { type: 'final', meta: { invariants: held.cancelledInvariants } },
  },
});

export type MfaSignInActor = ActorRefFrom<typeof mfaSignInMachine>;
export type MfaSignInSnapshot = SnapshotFrom<typeof mfaSignInMachine>;
