// The session machine's setup (machines/session.ts): what it does to the world, named and provided from outside (the
// browser's in src/system/browser.ts, tests and replay their own), its guards and delays, and the actions every end,
// start and switch of a session shares.
import { assign, type DoneActorEvent } from 'xstate';
import { lazySetup } from './defined';
import type { Infer } from 'superstruct';
import {
  LoginRequest,
  ProfileUpdate,
  SESSION_EXPIRED_MESSAGE,
  SESSION_CHANGED_ELSEWHERE_MESSAGE,
  SIGNED_OUT_ELSEWHERE_MESSAGE,
  SelectClientRequest,
  Settings,
  validate,
  type IamProvider,
  type User,
} from '../contract';
import { notProvided } from './notProvided';
import {
  CLIENT_SWITCH_LISTENERS,
  MAX_TIMER_MS,
  SESSION_LISTENERS,
  SESSION_START_LISTENERS,
  isTokenLive,
  mergedSettings,
  signedOutContext,
} from './session.helpers';
import { mfaSignInMachine } from './session.mfa';
import type {
  Authenticated,
  IamAuthenticated,
  MeRead,
  RestoredToken,
  SessionContext,
  SessionEmitted,
  SessionEvent,
  SessionInput,
  StoredSession,
} from './session.types';

export const sessionSetup = lazySetup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    emitted: {} as SessionEmitted,
    tags: {} as 'signedIn' | 'signedOut' | 'busy',
  },
  actors: {
    restoreSession: notProvided<RestoredToken>('restoreSession'),
    fetchMe: notProvided<MeRead, { token: string }>('fetchMe'),
    /** The server's answer: a session, or (issue 49) a challenge for the second step (contract SignInAnswer; isMfaChallenge). */
    signIn: notProvided<Authenticated, LoginRequest>('signIn'),
    /** Issue 49: a sign-in with a passkey alone: the browser's ceremony and the server's check → the session. */
    signInWithPasskey: notProvided<Authenticated>('signInWithPasskey'),
    /** Issue 49: the second step of a sign-in (a code, a passkey, or the enrolment the client requires). */
    mfaSignIn: mfaSignInMachine,
    selectClient: notProvided<Authenticated, { clientId: number | null }>('selectClient'),
    /** Reads the session of a token another tab stored (its user, grants and settings), with the clock's reading. */
    adoptSession: notProvided<Authenticated, { token: string }>('adoptSession'),
    saveProfile: notProvided<User, Infer<typeof ProfileUpdate>>('saveProfile'),
    saveSettings: notProvided<Settings, Settings>('saveSettings'),
    // issue 49: the identity providers the sign-in page offers, and a provider's sign-in exchanged for a session
    listIamProviders: notProvided<IamProvider[]>('listIamProviders'),
    exchangeIamTicket: notProvided<IamAuthenticated, { ticket: string }>('exchangeIamTicket'),
  },
  actions: {
    // Effects on the world; src/system/browser.ts provides the browser's, tests and replay their own.
    storeSession: (_, _params: StoredSession) => {},
    /** `token`: the session ending here; a stored session that is another's (another tab's newer one) is left. */
    clearStoredSession: (_, _params?: { token: string | null }) => {},
    callLogout: (_, _params: { token: string | null }) => {},
    /** Issue 49: the browser leaves for an identity provider's sign-in, through the server's start path. */
    goToProvider: (_, _params: { url: string }) => {},
    noteExpired: assign(({ event }) => ({
      notice: SESSION_EXPIRED_MESSAGE,
      redirect: event.type === 'session.expired' ? (event.path ?? null) : null,
      endedBy: 'expiry' as const,
    })),
    noteSignedOutElsewhere: assign({ notice: SIGNED_OUT_ELSEWHERE_MESSAGE, redirect: null, error: null, endedBy: 'signOut' as const }),
    noteChangedElsewhere: assign({ notice: SESSION_CHANGED_ELSEWHERE_MESSAGE, redirect: null, error: null, endedBy: 'signOut' as const }),
    /** Before the session's user is forgotten: the return address, if any, is theirs. */
    rememberWhoEnded: assign(({ context }) => ({ returnFor: context.user?.username ?? null })),
  },
  guards: {
    credentialsInvalid: ({ event }) => event.type === 'session.signIn' && !validate({ username: event.username, password: event.password }, LoginRequest).ok,
    clientRequestInvalid: ({ event }) => event.type === 'session.selectClient' && !validate({ clientId: event.clientId }, SelectClientRequest).ok,
    profileInvalid: ({ event }) => {
      if (event.type !== 'session.updateProfile') return false;
      const { type: _t, ...body } = event;
      return !validate(body, ProfileUpdate).ok;
    },
    settingsInvalid: ({ context, event }) => event.type === 'session.updateSettings' && !mergedSettings(context, event.patch).ok,
    /** The token another tab stored is this tab's own already (or it says nothing new). */
    elsewhereSame: ({ context, event }) => event.type === 'session.elsewhere' && event.token === context.token,
    /** Another tab stored a session that can be followed: a token still live on the clock. */
    elsewhereLive: ({ context, event }) => event.type === 'session.elsewhere' && isTokenLive(event.token, event.now + context.clockOffset),
  },
  delays: {
    // §4 auto sign-out at expiry: computed from exp and the injected clock's reading, clamped to what a timer holds.
    // exp is the server's time: the browser's reading is moved by the measured offset
    tokenExpiry: ({ context }) => Math.min(MAX_TIMER_MS, Math.max(0, (context.expiresAt ?? 0) - ((context.observedAt ?? 0) + context.clockOffset))),
  },
});

/** The wake's re-read of the stored session (validating's `revalidate`), which may lead to adopting another tab's. */
export const revalidated = (event: { type: string }): event is DoneActorEvent<RestoredToken, 'revalidate'> => event.type === 'xstate.done.actor.revalidate';

/** What the alarms hear at a session's start: when it began, on the server's clock their raised times are on (machines/alarms.ts). */
const alarmsStarted = (context: SessionContext): { type: 'session.started'; at: number | null } => ({
  type: 'session.started',
  at: context.observedAt === null ? null : context.observedAt + context.clockOffset,
});

/** Every end of a session (§4): logout best-effort, clear storage, tell the listeners, forget the session. */
export const sessionSetupWithEnd = sessionSetup.extend({
  actions: {
    startSession: sessionSetup.enqueueActions(({ context, enqueue, system }) => {
      for (const id of SESSION_START_LISTENERS) {
        const ref = system.get(id);
        if (ref) enqueue.sendTo(ref, { type: 'session.started' });
      }
      // the alarms raised from now on are news, though the socket that would carry them live is not up yet
      const alarms = system.get('alarms');
      if (alarms) enqueue.sendTo(alarms, alarmsStarted(context));
    }),
    /** Issue 10: a return address left by another user's session is not followed by this one. */
    keepOwnReturnAddress: sessionSetup.assign(({ context }) => ({
      redirect: context.returnFor !== null && context.returnFor !== context.user?.username ? null : context.redirect,
      returnFor: null,
      endedBy: null,
    })),
    switchSession: sessionSetup.enqueueActions(({ context, enqueue, system }) => {
      const tabs = system.get('tabs');
      if (tabs) enqueue.sendTo(tabs, { type: 'session.clientChanged' });
      for (const id of CLIENT_SWITCH_LISTENERS) {
        const ref = system.get(id);
        if (ref) enqueue.sendTo(ref, { type: 'session.ended' });
      }
      for (const id of SESSION_START_LISTENERS) {
        const ref = system.get(id);
        if (ref) enqueue.sendTo(ref, { type: 'session.started' });
      }
      const alarms = system.get('alarms');
      if (alarms) enqueue.sendTo(alarms, alarmsStarted(context));
      enqueue.emit({ type: 'session.clientChanged' });
    }),
    endSession: sessionSetup.enqueueActions(({ context, enqueue, system }) => {
      enqueue({ type: 'callLogout', params: { token: context.token } });
      enqueue({ type: 'clearStoredSession', params: { token: context.token } });
      for (const id of SESSION_LISTENERS) {
        const ref = system.get(id);
        if (ref) enqueue.sendTo(ref, { type: 'session.ended' });
      }
      enqueue.assign(signedOutContext);
      enqueue.emit({ type: 'session.ended' });
    }),
    /**
     * The session ended in another tab of this browser: this tab lets it go as every end does, but neither signs out
     * (the other tab did) nor clears the storage (it holds what the other tab left: nothing, or its new session).
     */
    leaveSession: sessionSetup.enqueueActions(({ enqueue, system }) => {
      for (const id of SESSION_LISTENERS) {
        const ref = system.get(id);
        if (ref) enqueue.sendTo(ref, { type: 'session.ended' });
      }
      enqueue.assign(signedOutContext);
      enqueue.emit({ type: 'session.ended' });
    }),
  },
});
