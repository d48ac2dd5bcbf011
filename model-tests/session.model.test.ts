// Model-based tests generated from the session machine's graph: every step of the paths to every reachable state and
// over every transition checked against the invariants of the states' meta (machines/session.invariants.ts) and the
// session's rules as properties of a step, with the effects (storage, logout) the machine performs on it.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { sessionMachine, type SessionSnapshot } from '../machines/session';
import { edgePaths, onDemand, expectOracle, type Step, type StepProperties } from './harness';
import { LOGIN_A, LOGIN_B, ME, NOW, SAVED_SETTINGS, SERVER_AHEAD_MS, TOKEN_A, TOKEN_B, TOKEN_EXPIRED, USER } from './fixtures';

/** Issue 49: the provider the server offers, and the ticket a provider's sign-in comes back with. */
const IAM_PROVIDER = { key: 'env', kind: 'oidc', name: 'Corp SSO', start: '/idp/1.0/oidc/start?provider=env' };
const IAM_TICKET = 'T'.repeat(43);

const staticEvents = [
  { type: 'xstate.done.actor.restore', output: { token: null, now: NOW } },
  { type: 'xstate.done.actor.restore', output: { token: TOKEN_A, now: NOW } },
  { type: 'xstate.done.actor.restore', output: { token: TOKEN_EXPIRED, now: NOW } },
  { type: 'xstate.done.actor.restore', output: { token: 'not-a-jwt', now: NOW } },
  { type: 'xstate.error.actor.restore', error: new Error('storage unavailable') },
  { type: 'xstate.done.actor.fetchMe', output: ME },
  { type: 'xstate.error.actor.fetchMe', error: new Error('JWT-Invalid') },
  { type: 'session.signIn', username: 'admin', password: 'secret', redirect: '/manage/identities' },
  { type: 'session.signIn', username: ' ', password: '' },
  { type: 'xstate.done.actor.signIn', output: LOGIN_A },
  { type: 'xstate.error.actor.signIn', error: new Error('Wrong username or password') },
  // issue 49: the password is right and a second factor is asked for; the second step gives its session, or none (back)
  { type: 'xstate.done.actor.signIn', output: { mfa: 'secondFactor', ticket: 't-1', methods: ['totp'], now: NOW } },
  { type: 'xstate.done.actor.mfa', output: LOGIN_A },
  { type: 'xstate.done.actor.mfa', output: null },
  // issue 49: a sign-in with a passkey alone: its session, or the refusal in words
  { type: 'session.passkeySignIn', redirect: '/manage/identities' },
  { type: 'xstate.done.actor.passkeySignIn', output: LOGIN_A },
  { type: 'xstate.error.actor.passkeySignIn', error: new Error('The passkey was not accepted') },
  { type: 'session.signOut' },
  { type: 'session.expired', path: '/manage/clients' },
  { type: 'session.wake' },
  { type: 'session.noticeDismissed' },
  { type: 'session.redirectHandled' },
  { type: 'xstate.after.tokenExpiry.session.signedIn' },
  { type: 'xstate.error.actor.revalidate', error: new Error('storage unavailable') },
  { type: 'session.selectClient', clientId: 2 },
  { type: 'session.selectClient', clientId: 0 },
  { type: 'xstate.done.actor.selectClient', output: LOGIN_B },
  { type: 'xstate.error.actor.selectClient', error: new Error('Forbidden') },
  { type: 'session.updateProfile', name: 'Ada Lovelace' },
  { type: 'session.updateProfile', avatarColor: 'purple' },
  { type: 'xstate.done.actor.saveProfile', output: { ...USER, name: 'Ada Lovelace' } },
  { type: 'xstate.error.actor.saveProfile', error: new Error('Server down') },
  { type: 'session.updateSettings', patch: { tagsView: false } },
  { type: 'session.updateSettings', patch: { tagsView: 'no' } },
  { type: 'xstate.done.actor.saveSettings', output: SAVED_SETTINGS },
  { type: 'xstate.error.actor.saveSettings', error: new Error('Server down') },
  // issue 11: the server's grants tag moved; the privileges are re-read without a new sign-in
  { type: 'session.grantsChanged' },
  { type: 'xstate.done.actor.refreshGrants', output: ME },
  { type: 'xstate.error.actor.refreshGrants', error: new Error('Server down') },
  // another tab of this browser stored another session (a client switch there), none (a sign-out), or a dead token
  { type: 'session.elsewhere', token: TOKEN_B, now: NOW + 500 },
  { type: 'session.elsewhere', token: null, now: NOW + 500 },
  { type: 'session.elsewhere', token: TOKEN_EXPIRED, now: NOW + 500 },
  { type: 'xstate.done.actor.adopt', output: LOGIN_B },
  { type: 'xstate.error.actor.adopt', error: new Error('JWT-Invalid') },
  // issue 49: the identity providers offered, a provider's sign-in started, left from the history, and its return
  { type: 'session.iamProvidersWanted' },
  { type: 'xstate.done.actor.iamProviders', output: [IAM_PROVIDER] },
  { type: 'session.iamStart', provider: 'env', redirect: '/monitor/alarms?x=1' },
  { type: 'session.iamStart', provider: 'not-offered' },
  { type: 'session.iamCancelled' },
  { type: 'xstate.done.actor.restore', output: { token: null, now: NOW, iamTicket: IAM_TICKET } },
  { type: 'xstate.done.actor.restore', output: { token: TOKEN_B, now: NOW, iamTicket: IAM_TICKET } },
  { type: 'xstate.done.actor.iamExchange', output: { ...LOGIN_A, returnTo: '/monitor/alarms' } },
  { type: 'xstate.error.actor.iamExchange', error: new Error('This sign-in is unknown, was already used or has expired') },
] as any[];

/** The stored token is this tab's own (the storage event of a change this tab made itself, or one that changed nothing). */
const sameElsewhere = (s: SessionSnapshot) => (s.context.token ? [{ type: 'session.elsewhere', token: s.context.token, now: NOW + 500 }] : []);

// the re-read after wake or expiry: the same token still live, the same token past its exp, or another token
const revalidateEvents = (s: SessionSnapshot) => [
  { type: 'xstate.done.actor.revalidate', output: { token: s.context.token, now: NOW + 1000 } },
  { type: 'xstate.done.actor.revalidate', output: { token: s.context.token, now: (s.context.expiresAt ?? NOW) + 1 } },
  { type: 'xstate.done.actor.revalidate', output: { token: TOKEN_EXPIRED, now: NOW } },
  // another tab switched client or signed out while this one slept
  { type: 'xstate.done.actor.revalidate', output: { token: TOKEN_B, now: NOW + 1000 } },
  { type: 'xstate.done.actor.revalidate', output: { token: null, now: NOW + 1000 } },
];

// bounded: which state, which client's token, and whether error/notice/redirect are set
// (and, signed out, whether a provider is offered: issue 49)
const serialize = (s: SessionSnapshot) =>
  JSON.stringify([
    s.value,
    s.context.user?.clientId ?? null,
    s.context.error !== null,
    s.context.notice !== null,
    s.context.redirect !== null,
    s.matches('signedOut') ? (s.context.iamProviders?.length ?? 'not asked') : null,
  ]);

/** Only events the real system can produce there: an actor's done/error only while it is invoked, the expiry only while signed in. */
function possible(s: SessionSnapshot, events: any[]) {
  const invoked = new Set(Object.keys(s.children));
  return events.filter((e) => {
    const m = /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(e.type);
    // the providers' list is a child spawned once asked (issue 49): its answer may come whenever it was asked
    if (m && m[1] === 'iamProviders') return s.context.iamProviders !== null;
    if (m) return invoked.has(m[1]);
    if (e.type.startsWith('xstate.after.')) return s.matches('signedIn');
    return true;
  });
}

const model = new TestModel(sessionMachine as any, {
  events: (s: SessionSnapshot) => possible(s, [...staticEvents, ...sameElsewhere(s), ...(s.matches({ signedIn: 'validating' }) ? revalidateEvents(s) : [])]),
  serializeState: serialize as any,
  limit: 100_000,
});

const EFFECTS = ['storeSession', 'clearStoredSession', 'callLogout', 'goToProvider'] as const;
const ELSEWHERE = ['You signed out in another tab.', 'Your session changed in another tab and could not be opened here. Sign in again.'];
const named = (effects: Step<SessionSnapshot>['effects'], type: string) => effects.filter((e) => e.type === type);

/** §3, §4, §5 as properties of each step, written from the specification (not from the machine's transitions). */
const properties: StepProperties<SessionSnapshot> = {
  'a session this tab ends (sign-out, expiry) is signed out at the server with its token and cleared from storage; one another tab ended is neither': ({
    before,
    after,
    effects,
  }) =>
    before.matches('signedIn') && after.matches('signedOut')
      ? ELSEWHERE.includes(after.context.notice ?? '')
        ? effects.length === 0
        : JSON.stringify(named(effects, 'callLogout').map((e) => e.params)) === JSON.stringify([{ token: before.context.token }]) &&
          named(effects, 'clearStoredSession').length === 1
      : undefined,
  'nothing is signed out at the server unless a session of this tab ends': ({ before, after, effects }) =>
    named(effects, 'callLogout').length ? before.matches('signedIn') && after.matches('signedOut') : undefined,
  'what is stored is the session as it now is, and only a signed-in one': ({ after, effects }) =>
    named(effects, 'storeSession').length
      ? after.matches('signedIn') &&
        named(effects, 'storeSession').every((e) => {
          const st = e.params as { token: string; user: unknown };
          return st.token === after.context.token && JSON.stringify(st.user) === JSON.stringify(after.context.user);
        })
      : undefined,
  "a sign-in, a client switch or an adopted session is the server's answer: its token, user and grants": ({ after, event }) =>
    // (a sign-in answered with a second step instead, issue 49, is the rule below)
    /^xstate\.done\.actor\.(signIn|selectClient|adopt|iamExchange|mfa)$/.test(event.type) && event.output && !('mfa' in event.output)
      ? after.matches('signedIn') &&
        after.context.token === event.output.token &&
        after.context.user?.clientId === event.output.user.clientId &&
        JSON.stringify(after.context.privileges) === JSON.stringify(event.output.privileges.priviledges)
      : undefined,
  // issue 49: the round trip through an identity provider
  "the browser leaves only from the sign-in page, only for a provider the server offers, through the server's start path with a return path of ours": ({
    before,
    after,
    effects,
  }) =>
    named(effects, 'goToProvider').length
      ? before.matches({ signedOut: 'idle' }) &&
        after.matches({ signedOut: 'leaving' }) &&
        named(effects, 'goToProvider').every((e) => {
          const url = (e.params as { url: string }).url;
          const start = before.context.iamProviders?.find((p) => url.startsWith(p.start))?.start;
          if (!start) return false;
          const rest = url.slice(start.length);
          // the return path is one encoded parameter, a path of ours (the server checks it again)
          return rest === '' || /^&return=%2F[^&]*$/.test(rest);
        })
      : undefined,
  'a ticket is exchanged only when the page came back from a provider with one, and never with a token held': ({ before, after, event }) =>
    after.matches({ signedOut: 'exchanging' }) && !before.matches({ signedOut: 'exchanging' })
      ? event.type === 'xstate.done.actor.restore' && !!event.output.iamTicket && after.context.token === null
      : undefined,
  "a provider's sign-in lands where it was started from (the server's return path), or at home": ({ after, event }) =>
    event.type === 'xstate.done.actor.iamExchange' ? after.context.redirect === (event.output.returnTo ?? null) : undefined,
  'issue 49: a password that needs a second factor holds no session until the second step gives one, and then it is that one': ({ before, after, event }) =>
    before.matches({ signedOut: 'secondStep' }) && event.type === 'xstate.done.actor.mfa'
      ? event.output === null
        ? after.matches({ signedOut: 'idle' }) && after.context.token === null
        : after.matches('signedIn') && after.context.token === event.output.token
      : event.type === 'xstate.done.actor.signIn' && 'mfa' in event.output
        ? after.matches({ signedOut: 'secondStep' }) && after.context.token === null
        : undefined,
  'a sign-in is sent only with a username and a password': ({ before, after, event }) =>
    before.matches({ signedOut: 'idle' }) && after.matches({ signedOut: 'signingIn' })
      ? event.type === 'session.signIn' && event.username.trim() !== '' && event.password !== ''
      : undefined,
  "another tab storing this tab's own token changes nothing": ({ before, after, event }) =>
    event.type === 'session.elsewhere' && before.matches('signedIn') && event.token === before.context.token
      ? JSON.stringify(after.value) === JSON.stringify(before.value) && after.context === before.context
      : undefined,
  'a wake or the expiry timer re-reads the stored session before anything else': ({ before, after, event }) =>
    (event.type === 'session.wake' && before.matches({ signedIn: 'active' })) || event.type === 'xstate.after.tokenExpiry.session.signedIn'
      ? after.matches({ signedIn: 'validating' })
      : undefined,
  'a settings save that fails puts back the settings before the change, and says so': ({ before, after, event }) =>
    event.type === 'xstate.error.actor.saveSettings' && before.matches({ signedIn: 'savingSettings' })
      ? JSON.stringify(after.context.settings) === JSON.stringify(before.context.settingsBeforeSave) && after.context.error !== null
      : undefined,
  'a session ends with the reason told: expired, or signed out elsewhere; a sign-out on purpose tells nothing': ({ before, after, event }) =>
    before.matches('signedIn') && after.matches('signedOut')
      ? event.type === 'session.signOut'
        ? after.context.notice === null
        : after.context.notice !== null
      : undefined,
};

const paths = onDemand(() => edgePaths(model, sessionMachine, serialize, EFFECTS, {}));

describe('session machine model', () => {
  it('reaches every state the interface names', () => {
    const values = new Set(paths().map((p) => JSON.stringify(p.path.state.value)));
    for (const v of [
      { restoring: 'reading' },
      { restoring: 'fetchingMe' },
      { signedOut: 'idle' },
      { signedOut: 'signingIn' },
      { signedOut: 'secondStep' },
      { signedIn: 'active' },
      { signedIn: 'validating' },
      { signedIn: 'switchingClient' },
      { signedIn: 'savingProfile' },
      { signedIn: 'savingSettings' },
      { signedIn: 'refreshingGrants' },
      { signedIn: 'adopting' },
      { signedOut: 'leaving' },
      { signedOut: 'exchanging' },
    ])
      expect(values, JSON.stringify(v)).toContain(JSON.stringify(v));
  });
  it("keeps the server's time: a sign-in answered by a server ten minutes ahead ends at the token's exp on the server's clock, and the alarms' session starts on it", () => {
    const signIn = paths().find((p) => p.path.steps.at(-1)!.event.type === 'xstate.done.actor.signIn');
    const context = signIn!.path.state.context;
    expect(context.clockOffset).toBe(SERVER_AHEAD_MS);
    const delay = (sessionMachine.implementations.delays as Record<string, (a: { context: typeof context }) => number>).tokenExpiry;
    expect(delay({ context })).toBe(3600_000 - SERVER_AHEAD_MS);
  });
  it('predicts the storage effects of a sign-in and a sign-out', () => {
    const signIn = paths().find((p) => p.path.steps.at(-1)!.event.type === 'xstate.done.actor.signIn');
    expect(signIn?.effects.at(-1)?.map((e) => e.type)).toEqual(['storeSession']);
    const signOut = paths().find((p) => p.path.steps.at(-1)!.event.type === 'session.signOut' && p.path.steps.at(-2)!.state.matches('signedIn'));
    expect(signOut?.effects.at(-1)?.map((e) => e.type)).toEqual(['callLogout', 'clearStoredSession']);
  });
  it('follows another tab: its client switch is adopted without storing anything, its sign-out ends this tab without a sign-out or clearing the storage', () => {
    const adopted = paths().find((p) => p.path.steps.at(-1)!.event.type === 'xstate.done.actor.adopt');
    expect(adopted?.path.state.context.user?.clientId).toBe(2);
    expect(adopted?.path.state.context.token).toBe(TOKEN_B);
    expect(adopted?.effects.at(-1)).toEqual([]);
    // a new session that cannot be read here ends this tab's without claiming a sign-out
    const unread = paths().find((p) => p.path.steps.at(-1)!.event.type === 'xstate.error.actor.adopt');
    expect(unread?.path.state.matches('signedOut')).toBe(true);
    expect(unread?.path.state.context.notice).toBe('Your session changed in another tab and could not be opened here. Sign in again.');
    expect(unread?.effects.at(-1)).toEqual([]);
    const left = paths().find((p) => {
      const last = p.path.steps.at(-1)!;
      return last.event.type === 'session.elsewhere' && last.event.token === null && p.path.steps.at(-2)?.state.matches({ signedIn: 'active' });
    });
    expect(left?.path.state.matches('signedOut')).toBe(true);
    expect(left?.path.state.context.notice).toBe('You signed out in another tab.');
    expect(left?.effects.at(-1)).toEqual([]);
    // and a tab signed out opens on the session another tab signed in
    const joined = paths().find(
      (p) =>
        p.path.steps.at(-1)!.event.type === 'session.elsewhere' &&
        p.path.steps.at(-2)?.state.matches({ signedOut: 'idle' }) &&
        p.path.state.matches('restoring'),
    );
    expect(joined?.path.state.context.token).toBe(TOKEN_B);
  });
  it('on waking, follows what another tab stored meanwhile instead of signing out: its session adopted, its sign-out left without clearing anything', () => {
    const woke = (token: string | null) =>
      paths().find((p) => {
        const last = p.path.steps.at(-1)!;
        return (
          last.event.type === 'xstate.done.actor.revalidate' &&
          last.event.output.token === token &&
          p.path.steps.at(-2)?.state.matches({ signedIn: 'validating' })
        );
      });
    const adopting = woke(TOKEN_B);
    expect(adopting?.path.state.matches({ signedIn: 'adopting' })).toBe(true);
    expect(adopting?.effects.at(-1)).toEqual([]);
    const left = woke(null);
    expect(left?.path.state.matches('signedOut')).toBe(true);
    expect(left?.path.state.context.notice).toBe('You signed out in another tab.');
    expect(left?.effects.at(-1)).toEqual([]);
  });
  it("goes to a provider's sign-in with the page to come back to, and comes back signed in there (issue 49)", () => {
    const left = paths().find((p) => p.path.steps.at(-1)!.event.type === 'session.iamStart' && p.path.state.matches({ signedOut: 'leaving' }));
    expect(left?.effects.at(-1)).toEqual([{ type: 'goToProvider', params: { url: '/idp/1.0/oidc/start?provider=env&return=%2Fmonitor%2Falarms%3Fx%3D1' } }]);
    const back = paths().find((p) => p.path.steps.at(-1)!.event.type === 'xstate.done.actor.iamExchange');
    expect(back?.path.state.matches('signedIn')).toBe(true);
    expect(back?.path.state.context.redirect).toBe('/monitor/alarms');
    expect(back?.effects.at(-1)?.map((e) => e.type)).toEqual(['storeSession']);
    // a provider not offered is not gone to; a refused ticket says why on the sign-in page
    const notOffered = paths().flatMap((p) =>
      p.path.steps.flatMap((st, i) =>
        st.event.type === 'session.iamStart' && st.event.provider === 'not-offered' && p.path.steps[i - 1]?.state.matches({ signedOut: 'idle' }) ? [st] : [],
      ),
    );
    expect(notOffered.length).toBeGreaterThan(0);
    expect(notOffered.filter((st) => !st.state.matches({ signedOut: 'idle' }))).toEqual([]);
    const refused = paths().find((p) => p.path.steps.at(-1)!.event.type === 'xstate.error.actor.iamExchange');
    expect(refused?.path.state.matches({ signedOut: 'idle' })).toBe(true);
    expect(refused?.path.state.context.error).toBe('This sign-in is unknown, was already used or has expired');
  });
  it(`keeps the invariants of its states' meta and the session rules at every step of the generated paths`, () => {
    expectOracle(paths(), properties, 6);
  });
});
