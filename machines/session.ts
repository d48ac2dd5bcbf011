// The signed-in operator: token, user, grants and settings (§3, §4, §5, §8). It owns sign-out: on every end
// of a session it clears storage, tells the server best-effort and sends `session.ended` to the listeners. What it does
// to the world, its guards, delays and shared actions are named in ./session.setup.ts.
import { assertEvent, assign, emit, spawnChild, type ActorRefFrom, type DoneActorEvent, type SnapshotFrom } from 'xstate';
import { LOGIN_MODE, LoginRequest, ProfileUpdate, Settings, validate, isMfaChallenge, type MfaChallenge } from '../contract';
import { errorSaid } from './notProvided';
import {
  authenticated,
  firstViolation,
  clockOffsetOf,
  isTokenLive,
  normaliseSettings,
  signedOutContext,
  storedSessionOf,
  tokenExpiresAt,
} from './session.helpers';
import * as held from './session.invariants';
import { revalidated, sessionSetupWithEnd } from './session.setup';
import type { Authenticated, RestoredToken } from './session.types';

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

/** Issue 49: the stored session's reading (restoring), which may carry a provider's ticket. */
const restored = (event: { type: string }): event is DoneActorEvent<RestoredToken, 'restore'> => event.type === 'xstate.done.actor.restore';

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
    iamProviders: null,
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
              // issue 49: back from an identity provider's sign-in with a ticket: it is exchanged for the session
              { guard: ({ event }) => !!event.output.iamTicket, target: '#session.signedOut.exchanging' },
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
        // issue 49: the sign-in page offers "Sign in with <provider>" for each provider the server names; asked once a load
        'session.iamProvidersWanted': {
          guard: ({ context }) => context.iamProviders === null,
          actions: [assign({ iamProviders: [] }), spawnChild('listIamProviders', { id: 'iamProviders' })],
        },
        'xstate.done.actor.iamProviders': { actions: assign(({ event }) => ({ iamProviders: event.output })) },
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
            // issue 49: a passkey alone (a discoverable credential): the browser's ceremony, then the server's session
            'session.passkeySignIn': {
              target: 'passkey',
              actions: assign(({ context, event }) => ({ error: null, notice: null, redirect: event.redirect ?? context.redirect })),
            },
            // issue 49: to a provider the server offers, through its start path (which checks the return address too)
            'session.iamStart': {
              guard: ({ context, event }) => !!context.iamProviders?.some((p) => p.key === event.provider),
              target: 'leaving',
              actions: [
                assign({ error: null, notice: null }),
                {
                  type: 'goToProvider',
                  params: ({ context, event }) => {
                    const start = context.iamProviders!.find((p) => p.key === event.provider)!.start;
                    const back = event.redirect ?? context.redirect;
                    return { url: back ? `${start}&return=${encodeURIComponent(back)}` : start };
                  },
                },
              ],
            },
          },
        },
        // issue 49: the page is leaving for the provider; it comes back as a new load (exchanging), or from the history
        leaving: {
          tags: ['busy'],
          meta: { invariants: held.iamRoundTripInvariants },
          on: { 'session.iamCancelled': 'idle' },
        },
        // issue 49: back from the provider with a ticket, exchanged once for the session it signed in
        exchanging: {
          tags: ['busy'],
          meta: { invariants: held.iamRoundTripInvariants },
          invoke: {
            id: 'iamExchange',
            src: 'exchangeIamTicket',
            input: ({ event }) => {
              // the restore's done event is not one of the machine's own events: widened, then checked
              const done: { type: string } = event;
              return { ticket: (restored(done) && done.output.iamTicket) || '' };
            },
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign(({ event }) => ({ ...authenticated(event.output), redirect: event.output.returnTo ?? null })),
                { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
                'startSession',
              ],
            },
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Sign-in failed') })) },
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
            onDone: [
              // issue 49: the password is right and a second factor is asked for (or must be enrolled first)
              { guard: ({ event }) => isMfaChallenge(event.output), target: 'secondStep' },
              {
                target: '#session.signedIn',
                actions: [
                  assign(({ event }) => authenticated(event.output as Authenticated)),
                  'keepOwnReturnAddress',
                  { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
                  'startSession',
                ],
              },
            ],
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Sign-in failed') })) },
          },
        },
        // issue 49: a sign-in with a passkey alone: the session, or back to the form with the refusal in words
        passkey: {
          tags: ['busy'],
          invoke: {
            id: 'passkeySignIn',
            src: 'signInWithPasskey',
            onDone: {
              target: '#session.signedIn',
              actions: [
                assign(({ event }) => authenticated(event.output)),
                'keepOwnReturnAddress',
                { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
                'startSession',
              ],
            },
            onError: { target: 'idle', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'The passkey was not accepted') })) },
          },
        },
        // issue 49: the second step (machines/session.mfa.ts): its session, or back to the password (null)
        secondStep: {
          meta: { invariants: held.secondStepInvariants },
          invoke: {
            id: 'mfa',
            src: 'mfaSignIn',
            input: ({ event }) => (event as unknown as { output: MfaChallenge }).output,
            onDone: [
              { guard: ({ event }) => event.output === null, target: 'idle' },
              {
                target: '#session.signedIn',
                actions: [
                  assign(({ event }) => authenticated(event.output!)),
                  'keepOwnReturnAddress',
                  { type: 'storeSession', params: ({ context }) => storedSessionOf(context) },
                  'startSession',
                ],
              },
            ],
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
            onError: { target: 'active', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not select the client') })) },
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
            onError: { target: 'active', actions: assign(({ event }) => ({ error: errorSaid(event.error, 'Could not save the profile') })) },
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
                error: errorSaid(event.error, 'Could not save the settings'),
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
