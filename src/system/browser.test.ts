import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { clearOwnSession, clearSession, readStoredViews, settledSession, writeSession } from './browser';
import { sessionMachine } from '../../machines/session';
import { GRANTS, LOGIN_A, LOGIN_B, NOW, TOKEN_A, TOKEN_B, USER } from '../../model-tests/fixtures';

function memoryStorage() {
  const m = new Map<string, string>();
  return {
    m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => {
      m.set(k, v);
    },
    removeItem: (k: string) => {
      m.delete(k);
    },
  };
}

describe('browser storage', () => {
  it('stores the session under the §3 keys, grants as {priviledges}', () => {
    const s = memoryStorage();
    writeSession({ token: TOKEN_A, privileges: GRANTS, roles: USER.roles, username: USER.username, clientId: 1, user: USER }, s);
    expect(s.m.get('jwt')).toBe(TOKEN_A);
    expect(JSON.parse(s.m.get('privileges')!)).toEqual({ priviledges: GRANTS });
    expect(JSON.parse(s.m.get('roles')!)).toEqual(['administrator']);
    expect(s.m.get('username')).toBe('admin');
    expect(s.m.get('clientId')).toBe('1');
    expect(JSON.parse(s.m.get('user')!)).toEqual(USER);
  });
  it('clears the session items and the tabs', () => {
    const s = memoryStorage();
    const tabs = memoryStorage();
    writeSession({ token: TOKEN_A, privileges: GRANTS, roles: [], username: 'a', clientId: null, user: USER }, s);
    s.setItem('gatehouse-settings-1.22.2', 'keep');
    tabs.setItem('visitedViews', '[]');
    clearSession(s, tabs);
    expect([...s.m.keys()]).toEqual(['gatehouse-settings-1.22.2']);
    expect(tabs.m.size).toBe(0);
  });
  it("clears this tab's session as it ends, never another tab's newer one (clearOwnSession)", () => {
    const s = memoryStorage();
    const tabs = memoryStorage();
    const store = (token: string) => writeSession({ token, privileges: GRANTS, roles: [], username: 'a', clientId: 1, user: USER }, s);
    store(TOKEN_B); // another tab switched client: its new session is stored, this tab still holds TOKEN_A
    tabs.setItem('visitedViews', '[]');
    clearOwnSession(TOKEN_A, s, tabs);
    expect([s.m.get('jwt'), s.m.has('user'), tabs.m.size]).toEqual([TOKEN_B, true, 0]);
    clearOwnSession(TOKEN_B, s, tabs);
    expect([...s.m.keys()]).toEqual([]);
    store(TOKEN_B);
    clearOwnSession(null, s, tabs); // a session of no known token (a stored one that failed to restore): cleared
    expect([...s.m.keys()]).toEqual([]);
  });
  it('a request waits for a session another tab stored before its storage event came, followed first (settledSession)', async () => {
    const machine = sessionMachine.provide({
      actors: {
        restoreSession: fromPromise(async () => ({ token: null, now: NOW })),
        signIn: fromPromise(async () => LOGIN_A),
        adoptSession: fromPromise(async ({ input }: { input: { token: string } }) => (input.token === TOKEN_B ? LOGIN_B : Promise.reject(new Error('no')))),
      } as never,
      actions: { storeSession: () => {}, clearStoredSession: () => {}, callLogout: () => {} },
    });
    const session = createActor(machine, { input: {} }).start();
    await waitFor(session, (s) => s.matches('signedOut'));
    session.send({ type: 'session.signIn', username: 'admin', password: 'pw' });
    await waitFor(session, (s) => s.matches({ signedIn: 'active' }));
    let stored: string | null = TOKEN_A;
    await settledSession(
      session as never,
      () => stored,
      () => NOW,
    );
    expect(session.getSnapshot().context.token).toBe(TOKEN_A);
    // another tab's client switch stored TOKEN_B; this tab's storage event has not come yet
    stored = TOKEN_B;
    await settledSession(
      session as never,
      () => stored,
      () => NOW,
    );
    expect([session.getSnapshot().matches({ signedIn: 'active' }), session.getSnapshot().context.token]).toEqual([true, TOKEN_B]);
    // the event, when it comes, changes nothing more
    session.send({ type: 'session.elsewhere', token: TOKEN_B, now: NOW });
    expect(session.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    session.stop();
  });
  it('reads only valid visited views back', () => {
    const s = memoryStorage();
    s.setItem('visitedViews', JSON.stringify([{ path: '/dashboard', title: 'Dashboard' }]));
    expect(readStoredViews(s)).toEqual([{ path: '/dashboard', title: 'Dashboard' }]);
    s.setItem('visitedViews', '[{"path":1}]');
    expect(readStoredViews(s)).toEqual([]);
    s.setItem('visitedViews', '{not json');
    expect(readStoredViews(s)).toEqual([]);
  });
});

describe('version-keyed settings (§9)', () => {
  it('writes settings under the current version key and clears older versions', async () => {
    const { persistSettingsLocally } = await import('./browser');
    const { SETTINGS_KEY } = await import('../../contract');
    const data = new Map<string, string>([
      ['gatehouse-settings-1.0.0', '{}'],
      ['other', 'kept'],
    ]);
    const storage = {
      get length() {
        return data.size;
      },
      key: (i: number) => [...data.keys()][i] ?? null,
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
      clear: () => data.clear(),
    } as Storage;
    persistSettingsLocally({ theme: '#000' }, storage);
    expect([...data.keys()].sort()).toEqual(['other', SETTINGS_KEY].sort());
    expect(JSON.parse(data.get(SETTINGS_KEY)!)).toEqual({ theme: '#000' });
  });
});

describe('stored privileges', () => {
  it('reads the ids of the stored grant list and treats garbage as none', async () => {
    const { storedPrivileges } = await import('./browser');
    const at = (v: string | null) => ({ getItem: () => v });
    expect(
      [...storedPrivileges(at(JSON.stringify({ priviledges: [{ privilegeIds: ['0.2.1.0', '0.1'], divisionIds: [1], firstParentDivisionIds: [1] }] })))].sort(),
    ).toEqual(['0.1', '0.2.1.0']);
    expect(storedPrivileges(at('{not json')).size).toBe(0);
    expect(storedPrivileges(at(JSON.stringify({ privileges: [] }))).size).toBe(0);
    expect(storedPrivileges(at(null)).size).toBe(0);
  });
});
