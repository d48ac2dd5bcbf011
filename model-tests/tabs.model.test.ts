// Model-based tests of the tabs machine: every step of the generated paths against the invariants of its meta and the
// §2 rules of tabs (an oracle of their own), then the caps of 10.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { MAX_CACHED_VIEWS, MAX_TABS } from '../contract';
import { tabsMachine, type TabsEmitted, type TabsSnapshot } from '../machines/tabs';
import { edgePaths, expectOracle, type Step, type StepProperties } from './harness';

const events = [
  { type: 'route.visited', path: '/login', title: 'Sign in', cache: false, tab: false },
  { type: 'route.visited', path: '/dashboard', title: 'Dashboard', cache: true },
  { type: 'route.visited', path: '/manage/clients', title: 'Clients', cache: true },
  { type: 'route.visited', path: '/profile', title: 'Profile', cache: false },
  { type: 'tab.close', path: '/manage/clients' },
  { type: 'tab.close', path: '/dashboard' },
  { type: 'tab.closeOthers', path: '/dashboard' },
  { type: 'tab.closeAll' },
  { type: 'session.ended' },
  // a client switch (issue 10; the views of one record it closes: console.issue10.test.ts)
  { type: 'session.clientChanged' },
] as any[];

const serialize = (s: TabsSnapshot) => JSON.stringify(s.context);
const model = new TestModel(tabsMachine as any, { events, serializeState: serialize as any, limit: 50_000 });
// The paths are built inside each test that reads them, not when the file is imported nor once for all: a mutation
// run (StrykerJS's vitest runner) switches a mutant on in a beforeAll hook, after the import, and runs only the tests
// that ran the mutated code, so paths built at import, or built by one test and reused by another, were never checked
// against a mutant of the machine's guards and actions (docs/TESTING.md).
const paths = () => edgePaths(model, tabsMachine, serialize, ['persistViews', 'xstate.emit'], {});

/** §2: where closing tabs takes the operator, written from the specification (not from the machine). */
function expectedNavigation(before: TabsSnapshot, event: any): TabsEmitted | null {
  if (event.type === 'tab.close' && event.path === before.context.currentPath) {
    const prev = before.context.previousPath;
    return { type: 'tabs.navigate', to: prev === null || prev === '/login' || prev === event.path ? '/dashboard' : -1 };
  }
  if (event.type === 'tab.closeOthers' && event.path !== before.context.currentPath) return { type: 'tabs.navigate', to: event.path };
  if (event.type === 'tab.closeAll') return { type: 'tabs.navigate', to: '/dashboard' };
  if (event.type === 'session.clientChanged' && before.context.currentPath !== null && before.context.scoped.includes(before.context.currentPath))
    return { type: 'tabs.navigate', to: '/dashboard' };
  return null;
}
const navigated = (effects: Step<TabsSnapshot>['effects']) =>
  effects.filter((e) => e.type === 'xstate.emit').map((e) => (e.params as { event: TabsEmitted }).event);
const stored = (effects: Step<TabsSnapshot>['effects']) => effects.filter((e) => e.type === 'persistViews').map((e) => (e.params as { views: unknown }).views);
const pathsOf = (s: TabsSnapshot) => s.context.views.map((v) => v.path);

const properties: StepProperties<TabsSnapshot> = {
  'a visit makes its path the current one and shows its tab with the title, unless it opens none': ({ before, after, event }) =>
    event.type === 'route.visited'
      ? after.context.currentPath === event.path &&
        (event.tab === false
          ? after.context.views === before.context.views
          : after.context.views.some((v) => v.path === event.path && v.title === event.title) &&
            before.context.views.every((v) => v.path === event.path || after.context.views.length === MAX_TABS || pathsOf(after).includes(v.path)))
      : undefined,
  'a visit to a cached view makes it the most recent kept alive; any other keeps the list': ({ before, after, event }) =>
    event.type === 'route.visited' ? (event.cache ? after.context.cached.at(-1) === event.path : after.context.cached === before.context.cached) : undefined,
  'closing a tab removes it from the tabs and from the views kept alive, the others keeping their order': ({ before, after, event }) =>
    event.type === 'tab.close'
      ? JSON.stringify(pathsOf(after)) === JSON.stringify(pathsOf(before).filter((p) => p !== event.path)) && !after.context.cached.includes(event.path)
      : undefined,
  'closing the other tabs keeps that one only, alive or not': ({ after, event }) =>
    event.type === 'tab.closeOthers' ? pathsOf(after).every((p) => p === event.path) && after.context.cached.every((p) => p === event.path) : undefined,
  // survivors of the 09:32 mutation run: the properties above let an emptied list pass
  'closing a tab keeps every other view alive, in their order': ({ before, after, event }) =>
    event.type === 'tab.close' ? JSON.stringify(after.context.cached) === JSON.stringify(before.context.cached.filter((p) => p !== event.path)) : undefined,
  'closing the other tabs keeps that tab if it was open, and alive if it was': ({ before, after, event }) =>
    event.type === 'tab.closeOthers'
      ? JSON.stringify(pathsOf(after)) === JSON.stringify(pathsOf(before).filter((p) => p === event.path)) &&
        JSON.stringify(after.context.cached) === JSON.stringify(before.context.cached.filter((p) => p === event.path))
      : undefined,
  'closing all tabs leaves none and none alive': ({ after, event }) =>
    event.type === 'tab.closeAll' ? after.context.views.length === 0 && after.context.cached.length === 0 : undefined,
  'closing the current tab goes back, or to the dashboard after sign-in or none; others go where §2 says': ({ before, event, effects }) =>
    event.type.startsWith('tab.') || event.type === 'session.clientChanged'
      ? JSON.stringify(navigated(effects)) === JSON.stringify([expectedNavigation(before, event)].filter(Boolean))
      : undefined,
  'a visit never navigates': ({ event, effects }) => (event.type === 'route.visited' ? navigated(effects).length === 0 : undefined),
  'the tabs are stored whenever they change, as they now are': ({ before, after, effects }) =>
    JSON.stringify(before.context.views) !== JSON.stringify(after.context.views)
      ? JSON.stringify(stored(effects)) === JSON.stringify([after.context.views])
      : stored(effects).length
        ? stored(effects).every((v) => JSON.stringify(v) === JSON.stringify(after.context.views))
        : undefined,
  'a client switch closes the views of one record and keeps no hidden view alive': ({ before, after, event }) =>
    event.type === 'session.clientChanged'
      ? pathsOf(after).every((p) => !before.context.scoped.includes(p)) &&
        after.context.cached.every((p) => p === before.context.currentPath) &&
        after.context.scoped.length === 0
      : undefined,
  'sign-out forgets every tab, kept-alive view and path': ({ after, event }) =>
    event.type === 'session.ended'
      ? after.context.views.length + after.context.cached.length + after.context.scoped.length === 0 &&
        after.context.currentPath === null &&
        after.context.previousPath === null
      : undefined,
};

describe('tabs machine model', () => {
  it('has a bounded graph with more than one reachable context', () => {
    expect(new Set(paths().map((p) => serialize(p.path.state))).size).toBeGreaterThan(10);
  });
  it('keeps the invariants of its meta and the §2 rules of tabs at every step of the generated paths', () => {
    expectOracle(paths(), properties, 5);
  });
});

describe('tabs caps', () => {
  const visit = (n: number, cache = true) => ({ type: 'route.visited' as const, path: `/screen/${n}`, title: `Screen ${n}`, cache });

  it(`keeps at most ${MAX_TABS} tabs: opening the 11th drops the oldest`, () => {
    const actor = createActor(tabsMachine, { input: {} }).start();
    for (let i = 1; i <= MAX_TABS + 1; i++) actor.send(visit(i));
    const paths = actor.getSnapshot().context.views.map((v) => v.path);
    expect(paths).toHaveLength(MAX_TABS);
    expect(paths[0]).toBe('/screen/2');
    expect(paths.at(-1)).toBe(`/screen/${MAX_TABS + 1}`);
  });

  it(`keeps at most ${MAX_CACHED_VIEWS} views alive, evicting the least recently visited`, () => {
    const actor = createActor(tabsMachine, { input: {} }).start();
    for (let i = 1; i <= MAX_CACHED_VIEWS; i++) actor.send(visit(i));
    actor.send(visit(1)); // revisit: /screen/1 becomes the most recent
    actor.send(visit(99));
    const cached = actor.getSnapshot().context.cached;
    expect(cached).toHaveLength(MAX_CACHED_VIEWS);
    expect(cached).not.toContain('/screen/2');
    expect(cached).toContain('/screen/1');
    expect(cached.at(-1)).toBe('/screen/99');
  });

  it('revisiting a tab keeps its place and takes the new title; uncached visits are not kept alive', () => {
    const actor = createActor(tabsMachine, {
      input: {
        views: [
          { path: '/a', title: 'A' },
          { path: '/b', title: 'B' },
        ],
      },
    }).start();
    actor.send({ type: 'route.visited', path: '/a', title: 'A again', cache: false });
    expect(actor.getSnapshot().context.views).toEqual([
      { path: '/a', title: 'A again' },
      { path: '/b', title: 'B' },
    ]);
    expect(actor.getSnapshot().context.cached).toEqual([]);
  });
});
