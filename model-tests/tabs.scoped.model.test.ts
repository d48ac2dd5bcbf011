// The tabs machine (machines/tabs.ts) where tabs.model.test.ts does not reach: views of one record (scoped visits,
// issue 10) and a client switch with them, the previous screen that "closing the current tab goes back" uses (§2), the
// caps of 10 at their very boundary (§2, §9) and the state invariants of its `meta` themselves (an oracle that cannot
// fail checks nothing: each must reject a state that breaks it, worked out by hand). The mutation run of 2026-12-02
// (docs/TESTING.md) left these as surviving mutants.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { MAX_CACHED_VIEWS, MAX_TABS } from '../contract';
import { tabsMachine, type TabsContext, type TabsEmitted, type TabsSnapshot } from '../machines/tabs';
import { edgePaths, expectOracle, type Step, type StepProperties } from './harness';

// a small graph with scoped visits: two record views of the client (one kept alive, one not), a list kept alive, and a
// screen without a tab; the switch, a close and the sign-out
const events = [
  { type: 'route.visited', path: '/login', title: 'Sign in', cache: false, tab: false },
  { type: 'route.visited', path: '/manage/identities', title: 'Identities', cache: true },
  { type: 'route.visited', path: '/manage/identities/edit/5', title: 'Edit identity', cache: true, scoped: true },
  { type: 'route.visited', path: '/visitor/details/1', title: 'Visitor details', cache: false, scoped: true },
  { type: 'tab.close', path: '/manage/identities/edit/5' },
  { type: 'session.clientChanged' },
  { type: 'session.ended' },
] as any[];

const serialize = (s: TabsSnapshot) => JSON.stringify(s.context);
const model = new TestModel(tabsMachine as any, { events, serializeState: serialize as any, limit: 50_000 });
// The paths are built inside each test that reads them, not when the file is imported nor once for all: a mutation
// run (StrykerJS's vitest runner) switches a mutant on in a beforeAll hook, after the import, and runs only the tests
// that ran the mutated code, so paths built at import, or built by one test and reused by another, were never checked
// against a mutant of the machine's guards and actions (docs/TESTING.md).
const paths = () => edgePaths(model, tabsMachine, serialize, ['persistViews', 'xstate.emit'], {});

const navigated = (effects: Step<TabsSnapshot>['effects']) =>
  effects.filter((e) => e.type === 'xstate.emit').map((e) => (e.params as { event: TabsEmitted }).event);
const stored = (effects: Step<TabsSnapshot>['effects']) => effects.filter((e) => e.type === 'persistViews').map((e) => (e.params as { views: unknown }).views);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Issue 10 and §2, written from the rules (not from the machine). */
const properties: StepProperties<TabsSnapshot> = {
  'a visit to another screen makes the one before it the previous; a visit to the current screen keeps the previous': ({ before, after, event }) =>
    event.type === 'route.visited'
      ? after.context.previousPath === (before.context.currentPath !== event.path ? before.context.currentPath : before.context.previousPath)
      : undefined,
  'a view of one record is remembered as one, once and as the latest; any other visit keeps that list': ({ before, after, event }) =>
    event.type === 'route.visited'
      ? event.scoped
        ? same(after.context.scoped, [...before.context.scoped.filter((p) => p !== event.path), event.path])
        : after.context.scoped === before.context.scoped
      : undefined,
  'a client switch closes exactly the tabs of record views, the others keeping their order': ({ before, after, event }) =>
    event.type === 'session.clientChanged'
      ? same(
          after.context.views,
          before.context.views.filter((v) => !before.context.scoped.includes(v.path)),
        )
      : undefined,
  'a client switch keeps alive only the view in front, and only if it is not a record view': ({ before, after, event }) => {
    if (event.type !== 'session.clientChanged') return undefined;
    const cur = before.context.currentPath;
    const keep = cur !== null && before.context.cached.includes(cur) && !before.context.scoped.includes(cur);
    return same(after.context.cached, keep ? [cur] : []);
  },
  'a client switch from a record view sends the operator home and forgets where they came from; from another view it keeps both': ({
    before,
    after,
    event,
    effects,
  }) => {
    if (event.type !== 'session.clientChanged') return undefined;
    const cur = before.context.currentPath;
    const fromRecord = cur !== null && before.context.scoped.includes(cur);
    return (
      same(navigated(effects), fromRecord ? [{ type: 'tabs.navigate', to: '/dashboard' }] : []) &&
      after.context.previousPath === (fromRecord ? null : before.context.previousPath) &&
      after.context.currentPath === cur &&
      after.context.scoped.length === 0
    );
  },
  'a client switch stores the tabs as they now are': ({ after, event, effects }) =>
    event.type === 'session.clientChanged' ? same(stored(effects), [after.context.views]) : undefined,
};

describe('tabs with views of one record (model)', () => {
  it('has a graph that reaches record views, kept alive and not, in front and behind', () => {
    const states = paths().map((p) => p.path.state.context);
    expect(states.some((c) => c.scoped.length === 2)).toBe(true);
    expect(states.some((c) => c.currentPath !== null && c.scoped.includes(c.currentPath))).toBe(true);
    expect(states.some((c) => c.currentPath !== null && !c.scoped.includes(c.currentPath) && c.scoped.length > 0)).toBe(true);
  });
  it('keeps its invariants, the previous screen and the client-switch rules at every step of the generated paths', () => {
    expectOracle(paths(), properties, 5);
  });
});

describe('tabs at the caps of 10 (§2, §9)', () => {
  const visit = (n: number, o: { cache?: boolean; scoped?: boolean } = {}) => ({
    type: 'route.visited' as const,
    path: `/screen/${n}`,
    title: `Screen ${n}`,
    cache: o.cache ?? true,
    ...(o.scoped ? { scoped: true } : {}),
  });
  const views = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `/screen/${i + 1}`, title: `Screen ${i + 1}` }));

  it(`exactly ${MAX_TABS} tabs and ${MAX_CACHED_VIEWS} kept-alive views are all kept`, () => {
    const actor = createActor(tabsMachine, { input: {} }).start();
    for (let i = 1; i <= MAX_TABS; i++) actor.send(visit(i));
    expect(actor.getSnapshot().context.views).toEqual(views(MAX_TABS));
    expect(actor.getSnapshot().context.cached).toEqual(views(MAX_CACHED_VIEWS).map((v) => v.path));
  });

  it(`restored tabs are the last ${MAX_TABS} of those stored; none stored, none shown`, () => {
    expect(
      createActor(tabsMachine, { input: { views: views(MAX_TABS + 2) } })
        .start()
        .getSnapshot().context.views,
    ).toEqual(views(MAX_TABS + 2).slice(2));
    expect(
      createActor(tabsMachine, { input: { views: views(3) } })
        .start()
        .getSnapshot().context.views,
    ).toEqual(views(3));
    const fresh = createActor(tabsMachine, { input: {} }).start().getSnapshot().context;
    expect(fresh).toEqual({ views: [], cached: [], previousPath: null, currentPath: null, scoped: [] });
    // started with no input at all (nothing stored in this browser tab)
    expect(
      createActor(tabsMachine, { input: undefined as never })
        .start()
        .getSnapshot().context.views,
    ).toEqual([]);
  });

  it(`remembers at most ${MAX_TABS} record views, the latest, each once`, () => {
    const actor = createActor(tabsMachine, { input: {} }).start();
    for (let i = 1; i <= MAX_TABS + 2; i++) actor.send(visit(i, { scoped: true }));
    actor.send(visit(5, { scoped: true })); // a revisit moves it to the end, not in twice
    const want = [3, 4, 6, 7, 8, 9, 10, 11, 12, 5].map((n) => `/screen/${n}`);
    expect(actor.getSnapshot().context.scoped).toEqual(want);
  });
});

describe('the invariants of the tabs machine reject the states that break them', () => {
  const invariants = tabsMachine.root.states.open.meta!.invariants as Record<string, (s: { context: TabsContext }) => boolean>;
  const ctx = (o: Partial<TabsContext>): { context: TabsContext } => ({
    context: { views: [], cached: [], previousPath: null, currentPath: null, scoped: [], ...o },
  });
  const tabs = (paths: string[]) => paths.map((path) => ({ path, title: path }));
  const n = (k: number) => Array.from({ length: k }, (_, i) => `/s/${i}`);
  // [invariant, state, holds]
  const cases: Array<[string, { context: TabsContext }, boolean]> = [
    [`at most ${MAX_TABS} tabs, each path once`, ctx({ views: tabs(n(MAX_TABS)) }), true],
    [`at most ${MAX_TABS} tabs, each path once`, ctx({ views: tabs(n(MAX_TABS + 1)) }), false],
    [`at most ${MAX_TABS} tabs, each path once`, ctx({ views: tabs(['/a', '/b', '/a']) }), false],
    [`at most ${MAX_CACHED_VIEWS} views kept alive, each once`, ctx({ cached: n(MAX_CACHED_VIEWS) }), true],
    [`at most ${MAX_CACHED_VIEWS} views kept alive, each once`, ctx({ cached: n(MAX_CACHED_VIEWS + 1) }), false],
    [`at most ${MAX_CACHED_VIEWS} views kept alive, each once`, ctx({ cached: ['/a', '/a'] }), false],
    ['the previous screen is another than the current one', ctx({}), true],
    ['the previous screen is another than the current one', ctx({ previousPath: '/a', currentPath: '/b' }), true],
    ['the previous screen is another than the current one', ctx({ previousPath: '/a', currentPath: '/a' }), false],
    ['no previous screen without a current one', ctx({}), true],
    ['no previous screen without a current one', ctx({ previousPath: '/a', currentPath: '/b' }), true],
    ['no previous screen without a current one', ctx({ currentPath: '/b' }), true],
    ['no previous screen without a current one', ctx({ previousPath: '/a' }), false],
    [`views of one record: each once, at most ${MAX_TABS}`, ctx({ scoped: n(MAX_TABS) }), true],
    [`views of one record: each once, at most ${MAX_TABS}`, ctx({ scoped: n(MAX_TABS + 1) }), false],
    [`views of one record: each once, at most ${MAX_TABS}`, ctx({ scoped: ['/r/1', '/r/1'] }), false],
  ];
  it('every invariant has a state that breaks it and one that keeps it', () => {
    expect(new Set(cases.map(([name]) => name))).toEqual(new Set(Object.keys(invariants)));
    for (const [name, state, holds] of cases)
      expect([name, JSON.stringify(state.context), invariants[name](state)]).toEqual([name, JSON.stringify(state.context), holds]);
  });
});
