// The numbers behind the graph: auto sign-out exactly at the jwt's exp, with vitest's fake timers as the clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { SESSION_EXPIRED_MESSAGE } from '../contract';
import { sessionMachine, type Authenticated, type RestoredToken } from '../machines/session';
import { rootMachine } from '../machines/system';
import { tabsMachine } from '../machines/tabs';
import { LOGIN_A, ME, NOW, fakeJwt } from './fixtures';

const settle = () => vi.advanceTimersByTimeAsync(0);

/** `serverAheadMs`: how far the server's clock is ahead of the browser's (the token's exp is on the server's clock). */
function start(stored: () => string | null, serverAheadMs = 0) {
  const effects: string[] = [];
  const machine = sessionMachine.provide({
    actors: {
      // the injected clock is Date.now(), which the fake timers control
      restoreSession: fromPromise<RestoredToken>(async () => ({ token: stored(), now: Date.now() })),
      fetchMe: fromPromise(async () => ME),
      signIn: fromPromise<Authenticated, { username: string; password: string }>(async () => ({
        ...LOGIN_A,
        token: fakeJwt((Date.now() + serverAheadMs) / 1000 + 60),
        serverTime: Date.now() + serverAheadMs,
        now: Date.now(),
      })),
    },
    actions: {
      clearStoredSession: () => {
        effects.push('clear');
      },
      callLogout: () => {
        effects.push('logout');
      },
      storeSession: () => {
        effects.push('store');
      },
    },
  });
  return { actor: createActor(machine, { input: {} }).start(), effects };
}

describe('session timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('signs out as expired exactly when the restored jwt reaches exp', async () => {
    const token = fakeJwt(NOW / 1000 + 90);
    let stored: string | null = token;
    const { actor, effects } = start(() => stored);
    await settle();
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);

    await vi.advanceTimersByTimeAsync(89_999);
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(true);

    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.notice).toBe(SESSION_EXPIRED_MESSAGE);
    expect(actor.getSnapshot().context.token).toBeNull();
    expect(effects).toContain('logout');
    expect(effects.at(-1)).toBe('clear');
    stored = null;
  });

  it('signs out 60 s after a sign-in whose token lives 60 s', async () => {
    const { actor } = start(() => null);
    await settle();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    actor.send({ type: 'session.signIn', username: 'admin', password: 'secret' });
    await settle();
    const token = actor.getSnapshot().context.token;
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);

    // storage still holds the token: only the clock decides
    await vi.advanceTimersByTimeAsync(59_000);
    expect(actor.getSnapshot().context.token).toBe(token);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
  });

  it("signs out 60 s after a sign-in whose token lives 60 s, whichever way the browser's clock is off the server's", async () => {
    for (const ahead of [600_000, -600_000]) {
      const { actor } = start(() => null, ahead);
      await settle();
      actor.send({ type: 'session.signIn', username: 'admin', password: 'secret' });
      await settle();
      expect(actor.getSnapshot().matches({ signedIn: 'active' }), `server ${ahead} ms ahead`).toBe(true);
      await vi.advanceTimersByTimeAsync(59_000);
      expect(actor.getSnapshot().matches({ signedIn: 'active' }), `server ${ahead} ms ahead`).toBe(true);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(actor.getSnapshot().matches({ signedOut: 'idle' }), `server ${ahead} ms ahead`).toBe(true);
      actor.stop();
    }
  });

  it('keeps the session on a wake while the token is live, and ends it after a sleep past exp', async () => {
    const token = fakeJwt(NOW / 1000 + 3600);
    const { actor } = start(() => token);
    await settle();
    actor.send({ type: 'session.wake' });
    await settle();
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);

    // the laptop slept: the wall clock jumped past exp while no timer ran
    vi.setSystemTime(NOW + 3600_000 + 1);
    actor.send({ type: 'session.wake' });
    await settle();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.notice).toBe(SESSION_EXPIRED_MESSAGE);
  });

  it('does not restore an expired or undecodable jwt', async () => {
    for (const stored of [fakeJwt(NOW / 1000), 'garbage', null]) {
      const { actor, effects } = start(() => stored);
      await settle();
      expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
      expect(effects).toEqual(['clear']);
      actor.stop();
    }
  });

  it('tells the tabs actor that the session ended', async () => {
    const token = fakeJwt(NOW / 1000 + 3600);
    const root = createActor(
      rootMachine.provide({
        actors: {
          session: sessionMachine.provide({
            actors: { restoreSession: fromPromise<RestoredToken>(async () => ({ token, now: Date.now() })), fetchMe: fromPromise(async () => ME) },
          }),
          tabs: tabsMachine,
        },
      }),
      { input: { tabs: { views: [{ path: '/dashboard', title: 'Dashboard' }] } } },
    ).start();
    await settle();
    const session = root.system.get('session')!;
    const tabs = root.system.get('tabs')!;
    expect(tabs.getSnapshot().context.views).toHaveLength(1);
    session.send({ type: 'session.signOut' });
    expect(tabs.getSnapshot().context.views).toEqual([]);
  });
});
