import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine, type RestoredToken } from './session';
import {
  selectClientId,
  selectHeldPrivileges,
  selectIsBusy,
  selectIsRestoring,
  selectIsSignedIn,
  selectNotice,
  selectPrivilegeEntries,
  selectRedirect,
  selectSettings,
  selectSignInError,
  selectUser,
  selectDisplayZone,
  selectLocale,
} from './session.selectors';
import { selectPhonePlaceholder } from './phone.selectors';
import { tabsMachine } from './tabs';
import { resourceListMachine, type ListQueryInput } from './resourceList';
import { pagerOf, sameListView, selectListView, selectPager } from './resourceList.selectors';
import { selectCachedPaths, selectViews } from './tabs.selectors';
import type { Event, MeResponse, PageOf } from '../contract';
import { alarmsMachine } from './alarms';
import { commandsOf, sameAlarmCommands, selectAlarmCommands } from './alarms.selectors';
import { GRANTS, LOGIN_A, ME, NOW, TOKEN_A, USER } from '../model-tests/fixtures';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('session selectors', () => {
  it('read a restoring, then signed-in session', async () => {
    let release!: (v: RestoredToken) => void;
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          restoreSession: fromPromise(
            () =>
              new Promise<RestoredToken>((r) => {
                release = r;
              }),
          ),
          fetchMe: fromPromise(async () => ME),
        },
      }),
      { input: {} },
    ).start();
    expect(selectIsRestoring(actor.getSnapshot())).toBe(true);
    expect(selectIsBusy(actor.getSnapshot())).toBe(true);
    expect(selectIsSignedIn(actor.getSnapshot())).toBe(false);
    release({ token: TOKEN_A, now: NOW });
    await tick();
    await tick();
    const s = actor.getSnapshot();
    expect(selectIsRestoring(s)).toBe(false);
    expect(selectIsSignedIn(s)).toBe(true);
    expect(selectIsBusy(s)).toBe(false);
    expect(selectUser(s)).toEqual(USER);
    expect(selectClientId(s)).toBe(1);
    expect(selectPrivilegeEntries(s)).toEqual(GRANTS);
    expect(selectSettings(s).fixedHeader).toBe(false);
    expect(selectHeldPrivileges(s)).toEqual(new Set(['0.1', '9.2.0']));
  });

  it("give every phone field one placeholder, an example number of the selected client's country (issue 29)", async () => {
    const signedIn = async (user: typeof USER) => {
      const actor = createActor(
        sessionMachine.provide({
          actors: {
            restoreSession: fromPromise<RestoredToken>(async () => ({ token: TOKEN_A, now: NOW })),
            fetchMe: fromPromise(async () => ({ ...ME, user })),
          },
        }),
        { input: {} },
      ).start();
      await tick();
      await tick();
      return actor.getSnapshot();
    };
    // the client's zone decides over the user's own
    expect(selectPhonePlaceholder(await signedIn({ ...USER, timezone: 'Asia/Kuala_Lumpur', clientTimezone: 'America/New_York' }))).toMatch(/^\+1 \d/);
    expect(selectPhonePlaceholder(await signedIn({ ...USER, timezone: 'America/New_York', clientTimezone: 'Asia/Kuala_Lumpur' }))).toMatch(/^\+60 \d/);
    expect(selectPhonePlaceholder(await signedIn({ ...USER, timezone: 'Europe/London', clientTimezone: null }))).toMatch(/^\+44 \d/);
  });

  it('memoise the held privileges per privileges array', async () => {
    const actor = createActor(
      sessionMachine.provide({
        actors: { restoreSession: fromPromise<RestoredToken>(async () => ({ token: TOKEN_A, now: NOW })), fetchMe: fromPromise(async () => ME) },
      }),
      { input: {} },
    ).start();
    await tick();
    await tick();
    const a = selectHeldPrivileges(actor.getSnapshot());
    actor.send({ type: 'session.noticeDismissed' }); // a new snapshot, same privileges array
    expect(selectHeldPrivileges(actor.getSnapshot())).toBe(a);
  });

  it('read the sign-in error, the expiry notice and the redirect', async () => {
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          restoreSession: fromPromise<RestoredToken>(async () => ({ token: null, now: NOW })),
          signIn: fromPromise(async () => LOGIN_A),
        },
      }),
      { input: {} },
    ).start();
    await tick();
    actor.send({ type: 'session.signIn', username: '', password: 'x' });
    expect(selectSignInError(actor.getSnapshot())).toMatch(/^username /);
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    actor.send({ type: 'session.signIn', username: 'admin', password: 'x' });
    await tick();
    actor.send({ type: 'session.expired', path: '/manage/identities' });
    expect(selectNotice(actor.getSnapshot())).toBe('Session expired, please relogin.');
    expect(selectRedirect(actor.getSnapshot())).toBe('/manage/identities');
    expect(selectIsSignedIn(actor.getSnapshot())).toBe(false);
  });

  it('read the zone times are shown in (profile, else client, else browser) and the language', async () => {
    const meWith = (timezone: string, clientTimezone: string | null, locale?: string): MeResponse => ({
      ...ME,
      user: { ...USER, timezone, clientTimezone },
      settings: locale ? { locale } : {},
    });
    const zoneOf = async (me: MeResponse) => {
      const actor = createActor(
        sessionMachine.provide({
          actors: { restoreSession: fromPromise<RestoredToken>(async () => ({ token: TOKEN_A, now: NOW })), fetchMe: fromPromise(async () => me) },
        }),
        { input: {} },
      ).start();
      await tick();
      await tick();
      return actor.getSnapshot();
    };
    expect(selectDisplayZone(await zoneOf(meWith('Asia/Kolkata', 'Europe/London')), 'America/Los_Angeles')).toBe('Asia/Kolkata');
    expect(selectDisplayZone(await zoneOf(meWith('', 'Europe/London')), 'America/Los_Angeles')).toBe('Europe/London');
    expect(selectDisplayZone(await zoneOf(meWith('', null)), 'America/Los_Angeles')).toBe('America/Los_Angeles');
    expect(selectLocale(await zoneOf(meWith('', null)))).toBe('en');
    expect(selectLocale(await zoneOf(meWith('', null, 'zh-CN')))).toBe('zh-CN');
  });
});

describe('tabs selectors', () => {
  it('read views and kept-alive paths', () => {
    const actor = createActor(tabsMachine, { input: {} }).start();
    actor.send({ type: 'route.visited', path: '/dashboard', title: 'Dashboard', cache: true });
    actor.send({ type: 'route.visited', path: '/profile', title: 'Profile', cache: false });
    expect(selectViews(actor.getSnapshot())).toEqual([
      { path: '/dashboard', title: 'Dashboard' },
      { path: '/profile', title: 'Profile' },
    ]);
    expect(selectCachedPaths(actor.getSnapshot())).toEqual(['/dashboard']);
  });
});

describe('resource list pager', () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1 }));
  it('names the exact total and the last page when the server counted every row', () => {
    expect(pagerOf({ items: rows(20), total: 45, totalIsAtLeast: false, page: 1, size: 20 })).toEqual({
      from: 21,
      to: 40,
      total: 45,
      atLeast: false,
      pages: 3,
      lastPage: 2,
      hasNext: true,
    });
    expect(pagerOf({ items: rows(5), total: 45, totalIsAtLeast: false, page: 2, size: 20 })).toMatchObject({ from: 41, to: 45, hasNext: false });
    expect(pagerOf({ items: [], total: 0, totalIsAtLeast: false, page: 0, size: 20 })).toMatchObject({ from: 0, to: 0, pages: 1, lastPage: 0, hasNext: false });
  });
  it('says "at least" with no last page while the total is a lower bound, and still lets the operator go on', () => {
    expect(pagerOf({ items: rows(20), total: 10_000, totalIsAtLeast: true, page: 0, size: 20 })).toEqual({
      from: 1,
      to: 20,
      total: 10_000,
      atLeast: true,
      pages: 500,
      lastPage: null,
      hasNext: true,
    });
    expect(pagerOf({ items: rows(20), total: 12_021, totalIsAtLeast: true, page: 600, size: 20 })).toMatchObject({ from: 12_001, to: 12_020, hasNext: true });
  });
  it('reads the pager from the list actor once a page has come', async () => {
    const actor = createActor(
      resourceListMachine.provide({
        actors: {
          fetchPage: fromPromise<PageOf<unknown>, ListQueryInput>(async () => ({ items: rows(20), total: 10_000, totalIsAtLeast: true, page: 0, size: 20 })),
        },
      }),
      { input: { resource: 'identities', size: 20 } },
    ).start();
    // once the page has come (a bare tick stood here)
    await vi.waitFor(() => expect(selectPager(actor.getSnapshot())).toMatchObject({ total: 10_000, atLeast: true, lastPage: null, hasNext: true }), {
      interval: 5,
    });
  });
});

describe('alarm commands', () => {
  const alarm = (id: number, acknowledge: boolean) =>
    ({
      id,
      eventCode: 1,
      eventPointId: id,
      eventSourceId: id,
      message: 'm',
      time: '2026-01-01T00:00:00Z',
      alert: true,
      priority: 1,
      acknowledge,
    }) as unknown as Event;
  it('say per open alarm which buttons the machine takes, and compare by value', () => {
    const actor = createActor(alarmsMachine).start();
    actor.send({ type: 'event.received', event: alarm(1, false) });
    actor.send({ type: 'event.received', event: alarm(2, true) });
    const commands = selectAlarmCommands(actor.getSnapshot());
    expect(commandsOf(commands, 1)).toEqual({ acknowledge: true, process: true });
    expect(commandsOf(commands, 2)).toEqual({ acknowledge: false, process: true }); // acknowledged already
    expect(commandsOf(commands, 3)).toEqual({ acknowledge: false, process: false }); // unknown
    expect(sameAlarmCommands(commands, selectAlarmCommands(actor.getSnapshot()))).toBe(true);
    actor.send({ type: 'event.received', event: alarm(3, false) });
    expect(sameAlarmCommands(commands, selectAlarmCommands(actor.getSnapshot()))).toBe(false);
    actor.stop();
  });
});

describe('a list view', () => {
  it('is read in one selector and compares by its parts', async () => {
    const list = createActor(
      resourceListMachine.provide({ actors: { fetchPage: fromPromise(async () => ({ items: [{ id: 1 }], total: 1, page: 0, size: 20 }) as PageOf<unknown>) } }),
      { input: { resource: 'identities', filters: { q: 'a' } } },
    ).start();
    const loading = selectListView(list.getSnapshot());
    expect(loading).toMatchObject({ items: [], busy: true, filters: { q: 'a' }, selection: [], confirming: false, deleting: false });
    await tick();
    const ready = selectListView(list.getSnapshot());
    expect(ready).toMatchObject({ items: [{ id: 1 }], total: 1, busy: false });
    expect(sameListView(ready, selectListView(list.getSnapshot()))).toBe(true);
    expect(sameListView(loading, ready)).toBe(false);
    list.send({ type: 'list.selectionChanged', ids: [1] });
    expect(sameListView(ready, selectListView(list.getSnapshot()))).toBe(false);
    list.stop();
  });
});
