// Issue 29: saving the profile said nothing. The session machine emits `session.profileSaved` when the server keeps
// the profile (the shell's Feedback turns it into the "Profile saved" toast), and nothing when the save fails or is
// refused before it is sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { User } from '../contract';
import { sessionMachine, type RestoredToken } from '../machines/session';
import { ME, NOW, TOKEN_A, USER } from './fixtures';

const settle = () => vi.advanceTimersByTimeAsync(0);

function start(save: (body: Record<string, unknown>) => Promise<User>) {
  const machine = sessionMachine.provide({
    actors: {
      restoreSession: fromPromise<RestoredToken>(async () => ({ token: TOKEN_A, now: Date.now() })),
      fetchMe: fromPromise(async () => ME),
      saveProfile: fromPromise(async ({ input }: { input: Record<string, unknown> }) => save(input)),
    },
    actions: { clearStoredSession: () => {}, callLogout: () => {}, storeSession: () => {} },
  });
  const actor = createActor(machine, { input: {} }).start();
  const said: string[] = [];
  actor.on('session.profileSaved', (e) => {
    said.push(e.type);
  });
  return { actor, said };
}

describe('saving the profile says so', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('emits profileSaved once the server kept it, with the saved user in the context', async () => {
    const { actor, said } = start(async (body) => ({ ...USER, ...body }) as User);
    await settle();
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(said).toEqual([]);
    actor.send({ type: 'session.updateProfile', name: 'Ada Lovelace', timezone: 'Europe/London' });
    await settle();
    expect(said).toEqual(['session.profileSaved']);
    expect(actor.getSnapshot().context.user).toMatchObject({ name: 'Ada Lovelace', timezone: 'Europe/London' });
  });

  it('says nothing when the save fails or the form is refused before it is sent', async () => {
    const { actor, said } = start(async () => {
      throw new Error('Server down');
    });
    await settle();
    actor.send({ type: 'session.updateProfile', name: 'Ada Lovelace' });
    await settle();
    expect(actor.getSnapshot().context.error).toBeTruthy();
    actor.send({ type: 'session.updateProfile', name: '   ' });
    await settle();
    expect(said).toEqual([]);
  });
});
