// Issue 10 at the depth of the actor system: a client switch takes the kept-alive views with it, and a return
// address belongs to the session that was asked to sign in again.
import { describe, expect, it } from 'vitest';
import { createControls } from '../model-tests/harness';
import { fakeSystemImpl } from '../model-tests/systemImpl';
import { LOGIN_A, LOGIN_B, NOW, USER } from '../model-tests/fixtures';
import { createGatehouseSystem, getSystemActor } from './system';

function start() {
  const controls = createControls();
  const impl = fakeSystemImpl(controls);
  const root = createGatehouseSystem(impl).start();
  return { root, controls, session: getSystemActor(root, 'session'), tabs: getSystemActor(root, 'tabs') };
}

async function signIn(s: ReturnType<typeof start>, login = LOGIN_A, redirect?: string) {
  s.session.send({ type: 'session.signIn', username: login.user.username, password: 'hunter2-secret', ...(redirect ? { redirect } : {}) });
  await s.controls.settle('signIn', 'done', login);
}

const OTHER = { ...LOGIN_A, user: { ...USER, id: 9, username: 'operator' } };

describe('client switch (issue 10)', () => {
  it('drops hidden kept-alive views, closes record views of the old client and tells the shell', async () => {
    const s = start();
    await s.controls.settle('restore', 'done', { token: null, now: NOW });
    await signIn(s);
    const emitted: string[] = [];
    s.session.on('session.clientChanged', (e) => emitted.push(e.type));
    const navigations: (string | -1)[] = [];
    s.tabs.on('tabs.navigate', (e) => navigations.push(e.to));
    s.tabs.send({ type: 'route.visited', path: '/manage/identities', title: 'Identities', cache: true });
    s.tabs.send({ type: 'route.visited', path: '/manage/identities/edit/5', title: 'Edit identity', cache: true, scoped: true });
    s.tabs.send({ type: 'route.visited', path: '/monitor/events', title: 'Events', cache: true });
    s.session.send({ type: 'session.selectClient', clientId: 2 });
    await s.controls.settle('selectClient', 'done', LOGIN_B);
    const t = s.tabs.getSnapshot().context;
    expect(t.views.map((v) => v.path)).toEqual(['/manage/identities', '/monitor/events']);
    expect(t.cached).toEqual(['/monitor/events']);
    expect(navigations).toEqual([]);
    expect(emitted).toEqual(['session.clientChanged']);
    s.root.stop();
  });

  it('sends the operator home when the view in front was a record of the old client', async () => {
    const s = start();
    await s.controls.settle('restore', 'done', { token: null, now: NOW });
    await signIn(s);
    const navigations: (string | -1)[] = [];
    s.tabs.on('tabs.navigate', (e) => navigations.push(e.to));
    s.tabs.send({ type: 'route.visited', path: '/visitor/details/1', title: 'Visitor details', cache: true, scoped: true });
    s.session.send({ type: 'session.selectClient', clientId: 2 });
    await s.controls.settle('selectClient', 'done', LOGIN_B);
    expect(s.tabs.getSnapshot().context.views).toEqual([]);
    expect(navigations).toEqual(['/dashboard']);
    s.root.stop();
  });
});

describe('return address after sign-in (issue 10)', () => {
  it('is dropped when another user signs in after a sign-out', async () => {
    const s = start();
    await s.controls.settle('restore', 'done', { token: null, now: NOW });
    await signIn(s);
    const ended: string[] = [];
    s.session.on('session.ended', (e) => ended.push(e.type));
    s.session.send({ type: 'session.signOut' });
    expect(ended).toEqual(['session.ended']);
    expect(s.session.getSnapshot().context.endedBy).toBe('signOut');
    await signIn(s, OTHER, '/attendance');
    expect(s.session.getSnapshot().context.redirect).toBeNull();
    s.root.stop();
  });

  it('is kept when the same user signs in again after their session expired', async () => {
    const s = start();
    await s.controls.settle('restore', 'done', { token: null, now: NOW });
    await signIn(s);
    s.session.send({ type: 'session.expired', path: '/monitor/alarms' });
    await signIn(s, LOGIN_A, '/monitor/alarms');
    expect(s.session.getSnapshot().context.redirect).toBe('/monitor/alarms');
    s.root.stop();
  });

  it('is dropped when someone else signs in on the expired session’s page', async () => {
    const s = start();
    await s.controls.settle('restore', 'done', { token: null, now: NOW });
    await signIn(s);
    s.session.send({ type: 'session.expired', path: '/manage/clients' });
    await signIn(s, OTHER, '/manage/clients');
    expect(s.session.getSnapshot().context.redirect).toBeNull();
    s.root.stop();
  });

  it('is followed after a fresh load, whoever signs in (a bookmarked page)', async () => {
    const s = start();
    await s.controls.settle('restore', 'done', { token: null, now: NOW });
    await signIn(s, OTHER, '/monitor/events');
    expect(s.session.getSnapshot().context.redirect).toBe('/monitor/events');
    s.root.stop();
  });
});
