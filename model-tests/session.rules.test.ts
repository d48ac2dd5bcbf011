// Issue 51: the session machine's rules (machines/session.ts, session.setup.ts, session.helpers.ts), one small
// hand-made case each, on the real actor with its world provided by the test, and expected values worked out by hand
// from SPEC §3-§5 and issues 10, 11, 29 and 49 (never the machine's own transition). The model test
// (session.model.test.ts) walks a 100,000-state graph; these cases run in a second, so a mutation run can afford them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, type AnyActorRef } from 'xstate';
import { SESSION_CHANGED_ELSEWHERE_MESSAGE, SESSION_EXPIRED_MESSAGE, SIGNED_OUT_ELSEWHERE_MESSAGE } from '../contract';
import { sessionMachine, type SessionSnapshot } from '../machines/session';
import { clockOffsetOf, tokenExpiresAt } from '../machines/session.helpers';
import { mfaSignInMachine } from '../machines/session.mfa';
import { LOGIN_A, LOGIN_B, ME, NOW, TOKEN_A, TOKEN_B, TOKEN_EXPIRED, USER, USER_B, GRANTS, GRANTS_B, fakeJwt } from './fixtures';

const settle = () => vi.advanceTimersByTimeAsync(0);

/** The actors that hear a session end (SESSION_LISTENERS), written down again here: the oracle's own list. */
const ENDED = ['tabs', 'tour', 'alarms', 'hardwareStatus', 'options', 'socket.events', 'socket.central', 'socket.visitor'];
const STARTED = ['socket.events', 'socket.central', 'socket.visitor'];
const SWITCH_ENDED = ['alarms', 'hardwareStatus', 'options', 'socket.events', 'socket.central', 'socket.visitor'];

/** TOKEN_A's exp (fixtures: NOW + 3600 s), in ms. */
const EXP_A = NOW + 3_600_000;
const CHALLENGE = { mfa: 'secondFactor', ticket: 't-1', methods: ['totp'] };
const PROVIDERS = [{ key: 'corp', name: 'Corp', start: '/api/iam/corp/start?x=1' }];

type Answer = (input: any) => Promise<unknown>;

/**
 * The session actor in a system of listeners that record what they hear; every actor of the world answers with the
 * test's `answers` (a rejection when none is given), and every effect is written to `effects`.
 */
function start(answers: Record<string, Answer>, mfaSignIn?: unknown) {
  const effects: Array<[string, unknown]> = [];
  const inputs: Array<[string, unknown]> = [];
  const heard: Array<[string, any]> = [];
  const emitted: string[] = [];
  const actor = (name: string) =>
    fromPromise(async ({ input }: { input: unknown }) => {
      inputs.push([name, input]);
      const a = answers[name];
      if (!a) throw new Error(`${name} refused`);
      return a(input);
    });
  const names = [
    'restoreSession',
    'fetchMe',
    'signIn',
    'signInWithPasskey',
    'selectClient',
    'adoptSession',
    'saveProfile',
    'saveSettings',
    'listIamProviders',
    'exchangeIamTicket',
  ];
  const session = sessionMachine.provide({
    actors: { ...Object.fromEntries(names.map((n) => [n, actor(n)])), ...(mfaSignIn ? { mfaSignIn } : {}) } as any,
    actions: {
      storeSession: (_: unknown, p: unknown) => void effects.push(['store', p]),
      clearStoredSession: () => void effects.push(['clear', null]),
      callLogout: (_: unknown, p: unknown) => void effects.push(['logout', p]),
      goToProvider: (_: unknown, p: unknown) => void effects.push(['goToProvider', p]),
    },
  });
  const recorder = fromCallback<any, { id: string }>(({ input, receive }) => {
    receive((e) => void heard.push([input.id, e]));
  });
  const root = createActor(
    createMachine({
      invoke: [
        { src: session as any, id: 'session', systemId: 'session', input: {} },
        ...ENDED.map((id) => ({ src: recorder, id, systemId: id, input: { id } })),
      ],
    }),
  ).start();
  const s = root.system.get('session') as AnyActorRef;
  for (const t of ['session.ended', 'session.clientChanged', 'session.profileSaved']) s.on(t, (e: { type: string }) => void emitted.push(e.type));
  return {
    send: (e: any) => s.send(e),
    snap: () => s.getSnapshot() as SessionSnapshot,
    ctx: () => (s.getSnapshot() as SessionSnapshot).context,
    effects,
    inputs,
    heard,
    emitted,
    stop: () => root.stop(),
    /** what each listener heard, as `id:type` */
    heardTypes: () => heard.map(([id, e]) => `${id}:${e.type}`),
  };
}

const restoredA = { restoreSession: async () => ({ token: TOKEN_A, now: NOW }), fetchMe: async () => ({ ...ME, serverTime: NOW + 5_000.4, now: NOW }) };

/** A session signed in with a password (LOGIN_A: server 600 s ahead), from an empty storage. */
async function signedIn(more: Record<string, Answer> = {}) {
  const t = start({ restoreSession: async () => ({ token: null, now: NOW }), signIn: async () => LOGIN_A, ...more });
  await settle();
  t.send({ type: 'session.signIn', username: 'admin', password: 'pw' });
  await settle();
  expect(t.snap().matches({ signedIn: 'active' })).toBe(true);
  t.effects.length = 0;
  t.heard.length = 0;
  t.inputs.length = 0;
  return t;
}

describe('session rules, case by case', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('restores a live stored token: reads its user with it, measures the clock, stores the session and starts it', async () => {
    const t = start(restoredA);
    expect(t.snap().hasTag('busy')).toBe(true);
    await settle();
    expect(t.snap().matches({ signedIn: 'active' })).toBe(true);
    const c = t.ctx();
    expect(t.inputs.find(([n]) => n === 'fetchMe')?.[1]).toEqual({ token: TOKEN_A });
    expect([c.token, c.expiresAt, c.observedAt, c.clockOffset]).toEqual([TOKEN_A, EXP_A, NOW, 5000]);
    expect([c.user, c.privileges]).toEqual([USER, GRANTS]);
    // ME's settings say fixedHeader false; the rest are the defaults
    expect([c.settings.fixedHeader, c.settings.tagsView, c.settings.theme]).toEqual([false, true, '#2d72d2']);
    expect(t.effects).toEqual([['store', { token: TOKEN_A, privileges: GRANTS, roles: ['administrator'], username: 'admin', clientId: 1, user: USER }]]);
    // the sockets hear the start; the alarms hear when it began on the server's clock (NOW + 5 s)
    expect(t.heard.map(([id, e]) => [id, e])).toEqual([
      ['socket.events', { type: 'session.started' }],
      ['socket.central', { type: 'session.started' }],
      ['socket.visitor', { type: 'session.started' }],
      ['alarms', { type: 'session.started', at: NOW + 5000 }],
    ]);
    t.stop();
  });

  it('restores with the previous clock offset when /me carries no server time, and settings the contract refuses fall back to the defaults', async () => {
    const t = start({ restoreSession: async () => ({ token: TOKEN_A, now: NOW }), fetchMe: async () => ({ ...ME, settings: { theme: 'red' } }) });
    await settle();
    expect(t.ctx().clockOffset).toBe(0);
    expect(t.ctx().settings.theme).toBe('#2d72d2');
    expect(t.ctx().settings.fixedHeader).toBe(true);
    t.stop();
  });

  it('clears a dead, missing or unreadable stored session and stays signed out, without telling the server', async () => {
    for (const restore of [
      async () => ({ token: TOKEN_EXPIRED, now: NOW }),
      async () => ({ token: null, now: NOW }),
      async () => Promise.reject(new Error('x')),
    ]) {
      const t = start({ restoreSession: restore });
      await settle();
      expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
      expect(t.effects).toEqual([['clear', null]]);
      expect(t.heard).toEqual([]);
      t.stop();
    }
  });

  it('a token read at its exact exp is dead (exp must be later than now)', async () => {
    const t = start({ restoreSession: async () => ({ token: TOKEN_A, now: EXP_A }), fetchMe: async () => ME });
    await settle();
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    t.stop();
  });

  it('a refused /me while restoring signs out, clears the storage and forgets the token', async () => {
    const t = start({ restoreSession: async () => ({ token: TOKEN_A, now: NOW }) });
    await settle();
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    expect(t.effects).toEqual([['clear', null]]);
    expect([t.ctx().token, t.ctx().expiresAt, t.ctx().observedAt]).toEqual([null, null, null]);
    t.stop();
  });

  it('refuses a blank sign-in with the first violation, and sends a trimmed username with the redirect kept', async () => {
    const t = start({ restoreSession: async () => ({ token: null, now: NOW }), signIn: async () => LOGIN_A });
    await settle();
    t.send({ type: 'session.signIn', username: '  ', password: 'pw' });
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    expect(t.ctx().error).toMatch(/^username /);
    t.send({ type: 'session.signIn', username: ' admin ', password: ' pw ', redirect: '/manage/doors' });
    expect(t.snap().matches({ signedOut: 'signingIn' })).toBe(true);
    expect(t.ctx().error).toBeNull();
    await settle();
    expect(t.inputs.find(([n]) => n === 'signIn')?.[1]).toEqual({ username: 'admin', password: ' pw ' });
    const c = t.ctx();
    expect([c.token, c.user, c.privileges, c.expiresAt, c.observedAt, c.clockOffset, c.redirect]).toEqual([
      TOKEN_A,
      USER,
      GRANTS,
      EXP_A,
      NOW,
      600_000,
      '/manage/doors',
    ]);
    expect(c.settings.tagsView).toBe(true);
    expect(t.effects.map(([e]) => e)).toEqual(['clear', 'store']);
    expect(t.heardTypes()).toEqual([
      'socket.events:session.started',
      'socket.central:session.started',
      'socket.visitor:session.started',
      'alarms:session.started',
    ]);
    expect(t.heard.at(-1)![1].at).toBe(NOW + 600_000);
    t.stop();
  });

  it('a refused sign-in says why, with a fallback for an error without words', async () => {
    const t = start({ restoreSession: async () => ({ token: null, now: NOW }), signIn: async () => Promise.reject(new Error('Wrong username or password')) });
    await settle();
    t.send({ type: 'session.signIn', username: 'admin', password: 'pw' });
    await settle();
    expect([t.snap().matches({ signedOut: 'idle' }), t.ctx().error]).toEqual([true, 'Wrong username or password']);
    t.stop();
    const u = start({ restoreSession: async () => ({ token: null, now: NOW }), signIn: async () => Promise.reject({}) });
    await settle();
    u.send({ type: 'session.signIn', username: 'admin', password: 'pw' });
    await settle();
    expect(u.ctx().error).toBe('Sign-in failed');
    u.stop();
  });

  it('a challenge goes to the second step with it as input; going back returns to the form, a factor signs in', async () => {
    const t = start({ restoreSession: async () => ({ token: null, now: NOW }), signIn: async () => CHALLENGE });
    await settle();
    t.send({ type: 'session.signIn', username: 'admin', password: 'pw' });
    await settle();
    expect(t.snap().matches({ signedOut: 'secondStep' })).toBe(true);
    const mfa = (t.snap().children as any).mfa;
    expect(mfa.getSnapshot().context).toMatchObject({ ticket: 't-1', enrol: false, methods: ['totp'] });
    mfa.send({ type: 'mfa.cancel' });
    await settle();
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    expect(t.ctx().token).toBeNull();
    t.stop();
  });

  it('keeps the return address for the same user after an expiry, drops it for another user', async () => {
    for (const [who, expected] of [
      [USER, '/manage/doors'],
      [{ ...USER, username: 'hr' }, null],
    ] as const) {
      const t = start({ ...restoredA, signIn: async () => ({ ...LOGIN_A, user: who }) });
      await settle();
      t.send({ type: 'session.expired', path: '/manage/doors' });
      expect(t.ctx().notice).toBe(SESSION_EXPIRED_MESSAGE);
      t.send({ type: 'session.signIn', username: who.username, password: 'pw' });
      await settle();
      expect(t.snap().matches({ signedIn: 'active' })).toBe(true);
      expect([t.ctx().redirect, t.ctx().returnFor, t.ctx().endedBy]).toEqual([expected, null, null]);
      t.stop();
    }
  });

  it('signs in with a passkey alone, or says the passkey was not accepted', async () => {
    const t = start({ restoreSession: async () => ({ token: null, now: NOW }), signInWithPasskey: async () => LOGIN_A });
    await settle();
    t.send({ type: 'session.passkeySignIn', redirect: '/x' });
    expect(t.snap().matches({ signedOut: 'passkey' })).toBe(true);
    await settle();
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().token, t.ctx().redirect]).toEqual([true, TOKEN_A, '/x']);
    // the empty storage was cleared when the page opened
    expect(t.effects.map(([e]) => e)).toEqual(['clear', 'store']);
    expect(t.heardTypes()).toContain('socket.events:session.started');
    t.stop();
    const u = start({ restoreSession: async () => ({ token: null, now: NOW }), signInWithPasskey: async () => Promise.reject('') });
    await settle();
    u.send({ type: 'session.passkeySignIn' });
    await settle();
    expect([u.snap().matches({ signedOut: 'idle' }), u.ctx().error]).toEqual([true, 'The passkey was not accepted']);
    u.stop();
  });

  it('asks for the identity providers once, and leaves only for one the server offers, with the return address', async () => {
    let asked = 0;
    const t = start({
      restoreSession: async () => ({ token: null, now: NOW }),
      listIamProviders: async () => {
        asked++;
        return PROVIDERS;
      },
    });
    await settle();
    expect(t.ctx().iamProviders).toBeNull();
    t.send({ type: 'session.iamProvidersWanted' });
    expect(t.ctx().iamProviders).toEqual([]);
    await settle();
    t.send({ type: 'session.iamProvidersWanted' });
    await settle();
    expect([asked, t.ctx().iamProviders]).toEqual([1, PROVIDERS]);
    t.send({ type: 'session.iamStart', provider: 'other' });
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    t.send({ type: 'session.iamStart', provider: 'corp', redirect: '/a b' });
    expect(t.snap().matches({ signedOut: 'leaving' })).toBe(true);
    expect(t.effects).toEqual([
      ['clear', null],
      ['goToProvider', { url: '/api/iam/corp/start?x=1&return=%2Fa%20b' }],
    ]);
    t.send({ type: 'session.iamCancelled' });
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    t.send({ type: 'session.iamStart', provider: 'corp' });
    expect(t.effects.at(-1)).toEqual(['goToProvider', { url: '/api/iam/corp/start?x=1' }]);
    t.stop();
  });

  it('a provider that lists nothing offers nothing to leave for', async () => {
    const t = start({ restoreSession: async () => ({ token: null, now: NOW }), listIamProviders: async () => [] });
    await settle();
    t.send({ type: 'session.iamStart', provider: 'corp' });
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    t.stop();
  });

  it("exchanges a provider's ticket for the session and goes to the page the sign-in started from", async () => {
    const t = start({
      restoreSession: async () => ({ token: null, now: NOW, iamTicket: 'tk-9' }),
      exchangeIamTicket: async () => ({ ...LOGIN_A, returnTo: '/monitor' }),
    });
    expect(t.snap().hasTag('busy')).toBe(true);
    await settle();
    expect(t.inputs.find(([n]) => n === 'exchangeIamTicket')?.[1]).toEqual({ ticket: 'tk-9' });
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().token, t.ctx().redirect]).toEqual([true, TOKEN_A, '/monitor']);
    expect(t.effects.map(([e]) => e)).toEqual(['store']);
    expect(t.heardTypes()).toContain('alarms:session.started');
    t.stop();
    const u = start({ restoreSession: async () => ({ token: null, now: NOW, iamTicket: 'tk-9' }), exchangeIamTicket: async () => ({ ...LOGIN_A }) });
    await settle();
    expect(u.ctx().redirect).toBeNull();
    u.stop();
    const v = start({ restoreSession: async () => ({ token: null, now: NOW, iamTicket: 'tk-9' }) });
    await settle();
    expect([v.snap().matches({ signedOut: 'idle' }), v.ctx().error]).toEqual([true, 'exchangeIamTicket refused']);
    v.stop();
  });

  it('dismisses a notice and forgets a handled redirect, signed out and signed in', async () => {
    const t = await signedIn();
    t.send({ type: 'session.expired', path: '/p' });
    expect([t.ctx().notice, t.ctx().redirect]).toEqual([SESSION_EXPIRED_MESSAGE, '/p']);
    t.send({ type: 'session.noticeDismissed' });
    t.send({ type: 'session.redirectHandled' });
    expect([t.ctx().notice, t.ctx().redirect]).toEqual([null, null]);
    t.stop();
    const u = start({ restoreSession: async () => ({ token: null, now: NOW }), signIn: async () => LOGIN_A });
    await settle();
    u.send({ type: 'session.signIn', username: 'admin', password: 'pw', redirect: '/r' });
    await settle();
    expect(u.ctx().redirect).toBe('/r');
    u.send({ type: 'session.redirectHandled' });
    expect(u.ctx().redirect).toBeNull();
    u.stop();
  });

  it('a sign-out tells the server with the token, clears the storage, tells every listener and forgets the session', async () => {
    const t = await signedIn();
    t.send({ type: 'session.signOut' });
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    expect(t.effects).toEqual([
      ['logout', { token: TOKEN_A }],
      ['clear', null],
    ]);
    expect(t.heardTypes()).toEqual(ENDED.map((id) => `${id}:session.ended`));
    expect(t.emitted).toEqual(['session.ended']);
    const c = t.ctx();
    expect([c.token, c.user, c.privileges, c.expiresAt, c.observedAt, c.settingsBeforeSave, c.notice, c.redirect, c.error, c.endedBy, c.returnFor]).toEqual([
      null,
      null,
      [],
      null,
      null,
      null,
      null,
      null,
      null,
      'signOut',
      'admin',
    ]);
    expect(c.settings.tagsView).toBe(true);
    t.stop();
  });

  it('the expiry timer fires at exp on the server clock: validating re-reads the storage and, the token dead, ends as expired', async () => {
    // LOGIN_A: exp NOW + 3600 s on the server's clock, which is 600 s ahead: 3000 s of the browser's
    const t = await signedIn({ restoreSession: async () => ({ token: TOKEN_A, now: Date.now() }) });
    await vi.advanceTimersByTimeAsync(3_000_000 - 1);
    expect(t.inputs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.inputs.map(([n]) => n)).toEqual(['restoreSession']);
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    expect(t.ctx().notice).toBe(SESSION_EXPIRED_MESSAGE);
    expect(t.effects.map(([e]) => e)).toEqual(['logout', 'clear']);
    t.stop();
  });

  it("a token beyond what a timer holds is re-checked at the timer's limit, and kept", async () => {
    const far = fakeJwt((NOW + 40 * 86_400_000) / 1000);
    const t = start({ restoreSession: async () => ({ token: far, now: Date.now() }), fetchMe: async () => ME });
    await settle();
    t.inputs.length = 0;
    await vi.advanceTimersByTimeAsync(2 ** 31 - 2);
    expect(t.inputs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.inputs.map(([n]) => n)).toEqual(['restoreSession']);
    expect(t.snap().matches({ signedIn: 'active' })).toBe(true);
    expect(t.ctx().observedAt).toBe(NOW + 2 ** 31 - 1);
    t.stop();
  });

  it('a wake keeps a live token with the new reading, adopts another live one, leaves on none, expires a dead one or an error', async () => {
    const cases: Array<[() => Promise<unknown>, string, string[]]> = [
      [async () => ({ token: TOKEN_A, now: NOW + 1000 }), 'active', []],
      [async () => ({ token: null, now: NOW + 1000 }), 'signedOut', []],
      [async () => ({ token: TOKEN_A, now: EXP_A - 600_000 }), 'expired', ['logout', 'clear']],
      [async () => Promise.reject(new Error('x')), 'expired', ['logout', 'clear']],
    ];
    for (const [restore, outcome, effects] of cases) {
      const t = await signedIn({ restoreSession: restore });
      t.send({ type: 'session.wake' });
      expect(t.snap().matches({ signedIn: 'validating' })).toBe(true);
      await settle();
      expect(t.effects.map(([e]) => e)).toEqual(effects);
      if (outcome === 'active') {
        expect(t.snap().matches({ signedIn: 'active' })).toBe(true);
        expect(t.ctx().observedAt).toBe(NOW + 1000);
      } else {
        expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
        expect(t.ctx().notice).toBe(outcome === 'expired' ? SESSION_EXPIRED_MESSAGE : SIGNED_OUT_ELSEWHERE_MESSAGE);
        expect(t.heardTypes()).toEqual(ENDED.map((id) => `${id}:session.ended`));
        expect(t.emitted).toEqual(['session.ended']);
      }
      t.stop();
    }
  });

  it('a wake that finds another live token adopts it: no store, the switch is told to every listener', async () => {
    const t = await signedIn({ restoreSession: async () => ({ token: TOKEN_B, now: NOW }), adoptSession: async () => LOGIN_B });
    t.send({ type: 'session.wake' });
    await settle();
    expect(t.inputs.map(([n, i]) => [n, i])).toEqual([
      ['restoreSession', undefined],
      ['adoptSession', { token: TOKEN_B }],
    ]);
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().token, t.ctx().user, t.ctx().privileges]).toEqual([true, TOKEN_B, USER_B, GRANTS_B]);
    expect(t.effects).toEqual([]);
    expect(t.emitted).toEqual(['session.clientChanged']);
    expect(t.heardTypes()).toEqual([
      'tabs:session.clientChanged',
      ...SWITCH_ENDED.map((id) => `${id}:session.ended`),
      ...STARTED.map((id) => `${id}:session.started`),
      'alarms:session.started',
    ]);
    // LOGIN_B has no server time: the offset is 0, the alarms' start is the browser's reading of its answer
    expect(t.heard.at(-1)![1]).toEqual({ type: 'session.started', at: NOW + 1000 });
    t.stop();
  });

  it('a wake that finds a token other than its own but dead ends the session as expired', async () => {
    const t = await signedIn({ restoreSession: async () => ({ token: TOKEN_EXPIRED, now: NOW }) });
    t.send({ type: 'session.wake' });
    await settle();
    expect([t.snap().matches({ signedOut: 'idle' }), t.ctx().notice]).toEqual([true, SESSION_EXPIRED_MESSAGE]);
    t.stop();
  });

  it("another tab's storage: the same token changes nothing; a live other is adopted; none leaves without logout or clear", async () => {
    const t = await signedIn({ adoptSession: async () => LOGIN_B });
    t.send({ type: 'session.elsewhere', token: TOKEN_A, now: NOW });
    expect(t.snap().matches({ signedIn: 'active' })).toBe(true);
    expect(t.inputs).toEqual([]);
    t.send({ type: 'session.elsewhere', token: TOKEN_B, now: NOW });
    expect(t.snap().matches({ signedIn: 'adopting' })).toBe(true);
    await settle();
    expect(t.inputs).toEqual([['adoptSession', { token: TOKEN_B }]]);
    expect(t.ctx().token).toBe(TOKEN_B);
    t.heard.length = 0;
    t.emitted.length = 0;
    t.send({ type: 'session.elsewhere', token: null, now: NOW });
    expect([t.snap().matches({ signedOut: 'idle' }), t.ctx().notice, t.ctx().endedBy, t.ctx().returnFor]).toEqual([
      true,
      SIGNED_OUT_ELSEWHERE_MESSAGE,
      'signOut',
      'admin',
    ]);
    expect(t.effects).toEqual([]);
    expect(t.heardTypes()).toEqual(ENDED.map((id) => `${id}:session.ended`));
    expect(t.emitted).toEqual(['session.ended']);
    expect(t.ctx().token).toBeNull();
    t.stop();
  });

  it("another tab's live token that cannot be read here: this tab leaves, never signs out nor clears", async () => {
    const t = await signedIn();
    t.send({ type: 'session.elsewhere', token: TOKEN_B, now: NOW });
    await settle();
    expect([t.snap().matches({ signedOut: 'idle' }), t.ctx().notice, t.ctx().token]).toEqual([true, SESSION_CHANGED_ELSEWHERE_MESSAGE, null]);
    expect(t.effects).toEqual([]);
    expect(t.emitted).toEqual(['session.ended']);
    t.stop();
  });

  it("another tab's token judged on this tab's server clock: live there means adopted, dead means left", async () => {
    // TOKEN_B's exp is NOW + 7200 s of the server's clock; this browser is 600 s behind it
    const t = await signedIn({ adoptSession: async () => LOGIN_B });
    t.send({ type: 'session.elsewhere', token: TOKEN_B, now: NOW + 7_200_000 - 600_000 - 1 });
    expect(t.snap().matches({ signedIn: 'adopting' })).toBe(true);
    t.stop();
    const u = await signedIn();
    u.send({ type: 'session.elsewhere', token: TOKEN_B, now: NOW + 7_200_000 - 600_000 });
    expect([u.snap().matches({ signedOut: 'idle' }), u.ctx().notice]).toEqual([true, SIGNED_OUT_ELSEWHERE_MESSAGE]);
    u.stop();
  });

  it('signed out, another tab signing in opens this one on that session; a dead token there is ignored', async () => {
    const t = start({ restoreSession: async () => ({ token: null, now: NOW }), fetchMe: async () => ME });
    await settle();
    t.send({ type: 'session.elsewhere', token: TOKEN_EXPIRED, now: NOW });
    expect(t.snap().matches({ signedOut: 'idle' })).toBe(true);
    t.send({ type: 'session.signIn', username: '', password: '' });
    expect(t.ctx().error).not.toBeNull();
    t.send({ type: 'session.elsewhere', token: TOKEN_A, now: NOW + 10 });
    expect(t.snap().matches({ restoring: 'fetchingMe' })).toBe(true);
    expect([t.ctx().token, t.ctx().expiresAt, t.ctx().observedAt, t.ctx().error, t.ctx().notice]).toEqual([TOKEN_A, EXP_A, NOW + 10, null, null]);
    await settle();
    expect(t.snap().matches({ signedIn: 'active' })).toBe(true);
    t.stop();
  });

  it('changed grants are read again with the token: user and grants follow and are stored; a refusal keeps them', async () => {
    const t = await signedIn({ fetchMe: async () => ({ ...ME, user: USER_B, privileges: { priviledges: GRANTS_B } }) });
    t.send({ type: 'session.grantsChanged' });
    expect(t.snap().matches({ signedIn: 'refreshingGrants' })).toBe(true);
    await settle();
    expect(t.inputs).toEqual([['fetchMe', { token: TOKEN_A }]]);
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().user, t.ctx().privileges]).toEqual([true, USER_B, GRANTS_B]);
    expect(t.effects).toEqual([['store', { token: TOKEN_A, privileges: GRANTS_B, roles: ['administrator'], username: 'admin', clientId: 2, user: USER_B }]]);
    t.stop();
    const u = await signedIn();
    u.send({ type: 'session.grantsChanged' });
    await settle();
    expect([u.snap().matches({ signedIn: 'active' }), u.ctx().privileges, u.effects]).toEqual([true, GRANTS, []]);
    u.stop();
  });

  it('a client switch: refused when the id is not one, else the new session is stored and the switch told', async () => {
    const t = await signedIn({ selectClient: async () => LOGIN_B });
    t.send({ type: 'session.selectClient', clientId: -1 });
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().error]).toEqual([true, 'Select a valid client']);
    t.send({ type: 'session.selectClient', clientId: 2 });
    expect([t.snap().matches({ signedIn: 'switchingClient' }), t.ctx().error]).toEqual([true, null]);
    await settle();
    expect(t.inputs).toEqual([['selectClient', { clientId: 2 }]]);
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().token, t.ctx().expiresAt]).toEqual([true, TOKEN_B, NOW + 7_200_000]);
    expect(t.effects).toEqual([['store', { token: TOKEN_B, privileges: GRANTS_B, roles: ['administrator'], username: 'admin', clientId: 2, user: USER_B }]]);
    expect(t.emitted).toEqual(['session.clientChanged']);
    expect(t.heardTypes()[0]).toBe('tabs:session.clientChanged');
    t.stop();
    const u = await signedIn({ selectClient: async () => Promise.reject(new Error('No such client')) });
    u.send({ type: 'session.selectClient', clientId: null });
    await settle();
    expect([u.snap().matches({ signedIn: 'active' }), u.ctx().error, u.ctx().token]).toEqual([true, 'No such client', TOKEN_A]);
    u.stop();
  });

  it('a profile: refused before it is sent when invalid; saved with its fields, stored and said; a failure says why', async () => {
    const t = await signedIn({ saveProfile: async (body) => ({ ...USER, ...body }) });
    t.send({ type: 'session.updateProfile', name: '  ' });
    expect(t.snap().matches({ signedIn: 'active' })).toBe(true);
    expect(t.ctx().error).toMatch(/^name /);
    t.send({ type: 'session.updateProfile', name: 'Ada', avatarColor: 'blue' });
    expect([t.snap().matches({ signedIn: 'savingProfile' }), t.ctx().error]).toEqual([true, null]);
    await settle();
    expect(t.inputs).toEqual([['saveProfile', { name: 'Ada', avatarColor: 'blue' }]]);
    expect(t.ctx().user).toEqual({ ...USER, name: 'Ada' });
    expect(t.effects).toEqual([
      ['store', { token: TOKEN_A, privileges: GRANTS, roles: ['administrator'], username: 'admin', clientId: 1, user: { ...USER, name: 'Ada' } }],
    ]);
    expect(t.emitted).toEqual(['session.profileSaved']);
    t.stop();
    const u = await signedIn();
    u.send({ type: 'session.updateProfile', name: 'Ada' });
    await settle();
    expect([u.snap().matches({ signedIn: 'active' }), u.ctx().error, u.emitted]).toEqual([true, 'saveProfile refused', []]);
    u.stop();
  });

  it('settings: shown at once, the newest change saved, the answer kept; a failure restores those before the first change', async () => {
    let release!: (v: unknown) => void;
    const saved: unknown[] = [];
    const t = await signedIn({
      saveSettings: (s) => {
        saved.push(s);
        return new Promise((r) => (release = r));
      },
    });
    t.send({ type: 'session.updateSettings', patch: { theme: 'red' } as any });
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().error]).toEqual([true, 'Invalid settings']);
    t.send({ type: 'session.updateSettings', patch: { tagsView: false } });
    expect([t.snap().matches({ signedIn: 'savingSettings' }), t.ctx().error, t.ctx().settings.tagsView, t.ctx().settingsBeforeSave?.tagsView]).toEqual([
      true,
      null,
      false,
      true,
    ]);
    t.send({ type: 'session.updateSettings', patch: { theme: 'blue' } as any });
    expect([t.snap().matches({ signedIn: 'savingSettings' }), t.ctx().error]).toEqual([true, 'Invalid settings']);
    t.send({ type: 'session.updateSettings', patch: { fixedHeader: false } });
    expect([t.ctx().settings.tagsView, t.ctx().settings.fixedHeader, t.ctx().settingsBeforeSave?.tagsView]).toEqual([false, false, true]);
    await settle();
    expect(saved.map((s: any) => [s.tagsView, s.fixedHeader])).toEqual([
      [false, true],
      [false, false],
    ]);
    release({ theme: 'bad' });
    await settle();
    // the server's answer is kept as it is normalised: an invalid one gives the defaults
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().settings.tagsView, t.ctx().settings.fixedHeader, t.ctx().settingsBeforeSave]).toEqual([
      true,
      true,
      true,
      null,
    ]);
    t.stop();
    const u = await signedIn();
    u.send({ type: 'session.updateSettings', patch: { tagsView: false } });
    u.send({ type: 'session.updateSettings', patch: { sidebarLogo: false } });
    await settle();
    expect([
      u.snap().matches({ signedIn: 'active' }),
      u.ctx().settings.tagsView,
      u.ctx().settings.sidebarLogo,
      u.ctx().settingsBeforeSave,
      u.ctx().error,
    ]).toEqual([true, true, true, null, 'saveSettings refused']);
    u.stop();
  });

  it('signed in through a second factor: the session it gave, stored and started', async () => {
    const mfa = mfaSignInMachine.provide({ actors: { verifyCode: fromPromise(async () => LOGIN_A) } });
    const t = start({ restoreSession: async () => ({ token: null, now: NOW }), signIn: async () => CHALLENGE }, mfa);
    await settle();
    t.send({ type: 'session.signIn', username: 'admin', password: 'pw', redirect: '/d' });
    await settle();
    expect([t.snap().matches({ signedOut: 'secondStep' }), t.ctx().token]).toEqual([true, null]);
    (t.snap().children as any).mfa.send({ type: 'mfa.submitCode', code: '123456' });
    await settle();
    expect([t.snap().matches({ signedIn: 'active' }), t.ctx().token, t.ctx().user, t.ctx().redirect, t.ctx().clockOffset]).toEqual([
      true,
      TOKEN_A,
      USER,
      '/d',
      600_000,
    ]);
    expect(t.effects.map(([e]) => e)).toEqual(['clear', 'store']);
    expect(t.heardTypes()).toContain('socket.visitor:session.started');
    t.stop();
  });
  it('a session alone in its system (no listener started yet) signs in, switches client, adopts and ends without a word to anyone', async () => {
    const effects: string[] = [];
    const machine = sessionMachine.provide({
      actors: {
        restoreSession: fromPromise(async () => ({ token: TOKEN_A, now: NOW })),
        fetchMe: fromPromise(async () => ME),
        selectClient: fromPromise(async () => LOGIN_B),
        adoptSession: fromPromise(async () => LOGIN_A),
      } as any,
      actions: {
        callLogout: () => void effects.push('logout'),
        clearStoredSession: () => void effects.push('clear'),
        storeSession: () => void effects.push('store'),
      },
    });
    const errors: unknown[] = [];
    const actor = createActor(machine, { input: {} });
    actor.subscribe({ error: (e) => void errors.push(e) });
    actor.start();
    await settle();
    actor.send({ type: 'session.selectClient', clientId: 2 });
    await settle();
    actor.send({ type: 'session.elsewhere', token: TOKEN_A, now: NOW });
    await settle();
    actor.send({ type: 'session.elsewhere', token: null, now: NOW });
    actor.send({ type: 'session.signIn', username: 'admin', password: 'pw' });
    actor.stop();
    const again = createActor(machine, { input: {} });
    again.subscribe({ error: (e) => void errors.push(e) });
    again.start();
    await settle();
    again.send({ type: 'session.signOut' });
    expect(errors).toEqual([]);
    expect(actor.getSnapshot().matches({ signedOut: 'signingIn' })).toBe(true);
    expect(again.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(effects).toEqual(['store', 'store', 'store', 'logout', 'clear']);
  });

  it("a token's expiry is read only from a finite numeric exp; a clock offset only from finite numbers", () => {
    const jwt = (payload: string) => `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(payload).toString('base64url')}.c2ln`;
    expect(tokenExpiresAt(jwt('{"exp":1700003600}'))).toBe(1_700_003_600_000);
    for (const bad of ['{"exp":"1700003600"}', '{"exp":1e400}', '{}', 'not json']) expect(tokenExpiresAt(jwt(bad)), bad).toBeNull();
    expect(tokenExpiresAt('garbage')).toBeNull();
    expect(clockOffsetOf(NOW + 1500.6, NOW)).toBe(1501);
    expect(clockOffsetOf(Infinity, NOW, 7)).toBe(7);
    expect(clockOffsetOf(NOW, -Infinity, 7)).toBe(7);
    expect(clockOffsetOf(undefined, NOW, 7)).toBe(7);
  });
});
