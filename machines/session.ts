// The signed-in operator: token, user, grants and settings (§3, §4, §5, §8). It owns sign-out: on every end
// of a session it clears storage, tells the server best-effort and sends `session.ended` to the listeners.
import { assertEvent, assign, emit, setup, type ActorRefFrom, type DoneActorEvent, type SnapshotFrom } from 'xstate';
import type { Infer } from 'superstruct';
import {
  LOGIN_MODE,
  LoginRequest,
  ProfileUpdate,
  SESSION_EXPIRED_MESSAGE,
  SESSION_CHANGED_ELSEWHERE_MESSAGE,
  SIGNED_OUT_ELSEWHERE_MESSAGE,
  SelectClientRequest,
  Settings,
  validate,
  type User,
} from '../contract';
import { errorText, notProvided } from './notProvided';
import {
  CLIENT_SWITCH_LISTENERS,
  MAX_TIMER_MS,
  SESSION_LISTENERS,
  SESSION_START_LISTENERS,
  authenticated,
  firstViolation,
  clockOffsetOf,
  isTokenLive,
  mergedSettings,
  normaliseSettings,
  signedOutContext,
  storedSessionOf,
  tokenExpiresAt,
} from './session.helpers';
import * as held from './session.invariants';
import type { Authenticated, MeRead, RestoredToken, SessionContext, SessionEmitted, SessionEvent, SessionInput, StoredSession } from './session.types';

// the pure helpers (session.helpers.ts) and the types (session.types.ts) are importable from here as before
export { DEFAULT_SETTINGS, MAX_TIMER_MS, SESSION_LISTENERS, SESSION_START_LISTENERS, isTokenLive, normaliseSettings, tokenExpiresAt } from './session.helpers';
export type {
  Authenticated,
  MeRead,
  RestoredToken,
  SessionContext,
  SessionEmitted,
  SessionEvent,
  SessionInput,
  SettingsPatch,
  StoredSession,
} from './session.types';

// ---------- machine ----------

const sessionSetup = setup({
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
    signIn: notProvided<Authenticated, LoginRequest>('signIn'),
    selectClient: notProvided<Authenticated, { clientId: number | null }>('selectClient'),
    /** Reads the session of a token another tab stored (its user, grants and settings), with the clock's reading. */
    adoptSession: notProvided<Authenticated, { token: string }>('adoptSession'),
    saveProfile: notProvided<User, Infer<typeof ProfileUpdate>>('saveProfile'),
    saveSettings: notProvided<Settings, Settings>('saveSettings'),
  },
  actions: {
    // Effects on the world; src/system/browser.ts provides the browser's, tests and replay their own.
    storeSession: (_, _params: StoredSession) => {},
    clearStoredSession: () => {},
    callLogout: (_, _params: { token: string | null }) => {},
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
const revalidated = (event: { type: string }): event is DoneActorEvent<RestoredToken, 'revalidate'> => event.type === 'xstate.done.actor.revalidate';

/** What the alarms hear at a session's start: when it began, on the server's clock their raised times are on (machines/alarms.ts). */
const alarmsStarted = (context: SessionContext): { type: 'session.started'; at: number | null } => ({
  type: 'session.started',
  at: context.observedAt === null ? null : context.observedAt + context.clockOffset,
});

/** Every end of a session (§4): logout best-effort, clear storage, tell the listeners, forget the session. */
const sessionSetupWithEnd = sessionSetup.extend({
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
      enqueue('clearStoredSession');
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

export const sessionMachine = sessionSetupWithEnd.createMachine({
  id: 'session',
  context: ({ input }) => ({
    ...signedOutContext,
    error: null,
    notice: null,
    redirect: null,
    returnFor: null,
    endedBy: null,
    loginMode: input?.loginMode ?? LOGIN_MODE,
    clockOffset: 0,
  }),
  initial: 'restoring',
  states: {
    restoring: {
      tags: ['busy'],
      initial: 'reading',
      states: {
        reading: {
          invoke: {
            id: 'restore',
            src: 'restoreSession',
            onDone: [
              {
                // no answer of the server yet to measure its clock by: the browser's (the server refuses a dead token anyway)
                guard: ({ event }) => isTokenLive(event.output.token, event.output.now),
                target: 'fetchingMe',
                actions: assign(({ event }) => ({ token: event.output.token, expiresAt: tokenExpiresAt(event.output.token), observedAt: event.output.now })),
              },
              // absent, undecodable or expired: leftovers are cleared (§5)
              { target: '#session.signedOut', actions: 'clearStoredSession' },
            ],
            onError: { target: '#session.signedOut', actions: 'clearStoredSession' },
          },
        },
        fetchingMe: {
          meta: { invariants: held.fetchingMeInvariants },
          invoke: {
            id: 'fetchMe',
            src: 'fetchMe',
            input: ({ context }) => ({ token: context.token ?? '' }),
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign(({ context, event }) => ({
                  user: event.output.user,
                  privileges: event.output.privileges.priviledges,
                  settings: normaliseSettings(event.output.settings),
                  clockOffset: clockOffsetOf(event.output.serverTime, event.output.now, context.clockOffset),
                })),
                { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
                'startSession',
              ],
            },
            onError: { target: '#session.signedOut', actions: ['clearStoredSession', assign(signedOutContext)] },
          },
        },
      },
    },
    signedOut: {
      tags: ['signedOut'],
      meta: { invariants: held.signedOutInvariants },
      initial: 'idle',
      on: {
        'session.noticeDismissed': { actions: assign({ notice: null }) },
        'session.redirectHandled': { actions: assign({ redirect: null }) },
      },
      states: {
        idle: {
          on: {
            // another tab of this browser signed in: this one opens on that session, as a reload would
            'session.elsewhere': {
              guard: 'elsewhereLive',
              target: '#session.restoring.fetchingMe',
              actions: assign(({ event }) => {
                assertEvent(event, 'session.elsewhere');
                return { token: event.token, expiresAt: tokenExpiresAt(event.token!), observedAt: event.now, notice: null, error: null };
              }),
            },
            'session.signIn': [
              {
                guard: 'credentialsInvalid',
                actions: assign(({ event }) => {
                  assertEvent(event, 'session.signIn');
                  const r = validate({ username: event.username, password: event.password }, LoginRequest);
                  return { error: r.ok ? null : firstViolation(r.violations) };
                }),
              },
              {
                target: 'signingIn',
                actions: assign(({ context, event }) => ({ error: null, notice: null, redirect: event.redirect ?? context.redirect })),
              },
            ],
          },
        },
        signingIn: {
          tags: ['busy'],
          invoke: {
            id: 'signIn',
            src: 'signIn',
            input: ({ event }) => {
              assertEvent(event, 'session.signIn');
              return { username: event.username.trim(), password: event.password };
            },
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign(({ event }) => authenticated(event.output)),
                'keepOwnReturnAddress',
                { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
                'startSession',
              ],
            },
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorText(event.error, 'Sign-in failed') })) },
          },
        },
      },
    },
    signedIn: {
      tags: ['signedIn'],
      meta: { invariants: held.signedInInvariants },
      initial: 'active',
      after: { tokenExpiry: { target: '.validating' } },
      on: {
        'session.signOut': {
          target: 'signedOut',
          actions: ['rememberWhoEnded', 'endSession', assign({ notice: null, redirect: null, error: null, endedBy: 'signOut' as const })],
        },
        'session.expired': { target: 'signedOut', actions: ['rememberWhoEnded', 'endSession', 'noteExpired'] },
        'session.redirectHandled': { actions: assign({ redirect: null }) },
        'session.noticeDismissed': { actions: assign({ notice: null }) },
        // Another tab of this browser stored another session (a client switch, another sign-in) or none (a sign-out).
        // The API client and the socket send this tab's own token, so until this tab has followed, its screens of
        // the old session never act with the new one (a form of one client saved into another).
        'session.elsewhere': [
          { guard: 'elsewhereSame' },
          { guard: 'elsewhereLive', target: '.adopting', reenter: true },
          { target: '#session.signedOut', actions: ['rememberWhoEnded', 'leaveSession', 'noteSignedOutElsewhere'] },
        ],
      },
      states: {
        adopting: {
          tags: ['busy'],
          invoke: {
            id: 'adopt',
            src: 'adoptSession',
            // the token another tab stored: from its storage event, or found by the wake's re-read (validating)
            input: ({ event }) => {
              if (event.type === 'session.elsewhere') return { token: event.token ?? '' };
              // the done event of an invoked actor is not one of the machine's own events: widened, then checked
              const done: { type: string } = event;
              return { token: (revalidated(done) && done.output.token) || '' };
            },
            onDone: {
              target: '#session.signedIn',
              reenter: true, // new token, new expiry
              actions: [assign(({ event }) => authenticated(event.output)), 'switchSession'],
            },
            // the other tab's session could not be read here: this tab leaves it (never signs it out, never clears it)
            onError: { target: '#session.signedOut', actions: ['rememberWhoEnded', 'leaveSession', 'noteChangedElsewhere'] },
          },
        },
        active: {
          meta: { invariants: held.notSavingSettingsInvariants },
          on: {
            'session.wake': 'validating',
            'session.grantsChanged': 'refreshingGrants',
            'session.selectClient': [
              { guard: 'clientRequestInvalid', actions: assign({ error: 'Select a valid client' }) },
              { target: 'switchingClient', actions: assign({ error: null }) },
            ],
            'session.updateProfile': [
              {
                guard: 'profileInvalid',
                actions: assign(({ event }) => {
                  assertEvent(event, 'session.updateProfile');
                  const { type: _t, ...body } = event;
                  const r = validate(body, ProfileUpdate);
                  return { error: r.ok ? null : firstViolation(r.violations) };
                }),
              },
              { target: 'savingProfile', actions: assign({ error: null }) },
            ],
            'session.updateSettings': [
              { guard: 'settingsInvalid', actions: assign({ error: 'Invalid settings' }) },
              {
                target: 'savingSettings',
                // optimistic: the drawer shows the change at once; a failed save restores settingsBeforeSave
                actions: assign(({ context, event }) => ({
                  error: null,
                  settingsBeforeSave: context.settings,
                  settings: Settings.create({ ...context.settings, ...event.patch }),
                })),
              },
            ],
          },
        },
        refreshingGrants: {
          // the sidebar and the route guard read context.privileges: they follow as soon as this is done
          invoke: {
            id: 'refreshGrants',
            src: 'fetchMe',
            input: ({ context }) => ({ token: context.token ?? '' }),
            onDone: {
              target: 'active',
              actions: [
                assign(({ event }) => ({ user: event.output.user, privileges: event.output.privileges.priviledges })),
                { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
              ],
            },
            // a refused /me: the error reporter ends the session (401); anything else keeps what is held
            onError: { target: 'active' },
          },
        },
        validating: {
          // sleep-wake (§9) and expiry: re-read the stored jwt with a fresh clock reading
          tags: ['busy'],
          invoke: {
            id: 'revalidate',
            src: 'restoreSession',
            onDone: [
              {
                guard: ({ context, event }) => event.output.token === context.token && isTokenLive(event.output.token, event.output.now + context.clockOffset),
                target: '#session.signedIn',
                reenter: true, // restarts the expiry timer from the new reading
                actions: assign(({ event }) => ({ observedAt: event.output.now })),
              },
              // another tab stored a session of its own while this one slept (its storage event came and went unseen):
              // followed as the event would have been, never signed out nor cleared from the storage
              {
                guard: ({ context, event }) =>
                  !!event.output.token && event.output.token !== context.token && isTokenLive(event.output.token, event.output.now + context.clockOffset),
                target: 'adopting',
              },
              // …or signed out there: this tab leaves too, and says why
              {
                guard: ({ event }) => event.output.token === null,
                target: '#session.signedOut',
                actions: ['rememberWhoEnded', 'leaveSession', 'noteSignedOutElsewhere'],
              },
              { target: '#session.signedOut', actions: ['rememberWhoEnded', 'endSession', 'noteExpired'] },
            ],
            onError: { target: '#session.signedOut', actions: ['rememberWhoEnded', 'endSession', 'noteExpired'] },
          },
        },
        switchingClient: {
          tags: ['busy'],
          invoke: {
            id: 'selectClient',
            src: 'selectClient',
            input: ({ event }) => {
              assertEvent(event, 'session.selectClient');
              return { clientId: event.clientId };
            },
            onDone: {
              target: '#session.signedIn',
              reenter: true, // new token, new expiry
              actions: [
                assign(({ event }) => authenticated(event.output)),
                { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
                'switchSession',
              ],
            },
            onError: { target: 'active', actions: assign(({ event }) => ({ error: errorText(event.error, 'Could not select the client') })) },
          },
        },
        savingProfile: {
          tags: ['busy'],
          invoke: {
            id: 'saveProfile',
            src: 'saveProfile',
            input: ({ event }) => {
              assertEvent(event, 'session.updateProfile');
              const { type: _t, ...body } = event;
              return body;
            },
            onDone: {
              target: 'active',
              actions: [
                assign(({ event }) => ({ user: event.output })),
                { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
                emit({ type: 'session.profileSaved' } as const),
              ],
            },
            onError: { target: 'active', actions: assign(({ event }) => ({ error: errorText(event.error, 'Could not save the profile') })) },
          },
        },
        savingSettings: {
          tags: ['busy'],
          meta: { invariants: held.savingSettingsInvariants },
          on: {
            'session.updateSettings': [
              { guard: 'settingsInvalid', actions: assign({ error: 'Invalid settings' }) },
              {
                target: 'savingSettings',
                reenter: true, // the newest settings win; the earlier save is cancelled
                actions: assign(({ context, event }) => ({ settings: Settings.create({ ...context.settings, ...event.patch }) })),
              },
            ],
          },
          invoke: {
            id: 'saveSettings',
            src: 'saveSettings',
            input: ({ context }) => context.settings,
            onDone: { target: 'active', actions: assign(({ event }) => ({ settings: normaliseSettings(event.output), settingsBeforeSave: null })) },
            onError: {
              target: 'active',
              actions: assign(({ context, event }) => ({
                settings: context.settingsBeforeSave ?? context.settings,
                settingsBeforeSave: null,
                error: errorText(event.error, 'Could not save the settings'),
              })),
            },
          },
        },
      },
    },
  },
});

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;
