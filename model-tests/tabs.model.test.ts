// Model-based tests of the tabs machine (every state and transition over three paths), then the caps of 10.
import { describe, expect, it } from 'vitest';
import { TestModel } from '@xstate/graph';
import { createActor } from 'xstate';
import { MAX_CACHED_VIEWS, MAX_TABS } from '../contract';
import { tabsMachine, type TabsEmitted, type TabsSnapshot } from '../machines/tabs';
import { edgePaths, type EdgePath } from './harness';

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
] as any[];

const serialize = (s: TabsSnapshot) => JSON.stringify(s.context);
const model = new TestModel(tabsMachine as any, { events, serializeState: serialize as any, limit: 50_000 });
const EFFECTS = ['persistViews'] as const;
const paths = edgePaths(model, tabsMachine, serialize, EFFECTS, {});

/** What the model says the machine emits on a step: navigation is checked against an independent rule. */
function expectedNavigation(before: TabsSnapshot, event: any): TabsEmitted | null {
  if (event.type === 'tab.close' && event.path === before.context.currentPath) {
    const prev = before.context.previousPath;
    return { type: 'tabs.navigate', to: prev === null || prev === '/login' || prev === event.path ? '/dashboard' : -1 };
  }
  if (event.type === 'tab.closeOthers' && event.path !== before.context.currentPath) return { type: 'tabs.navigate', to: event.path };
  if (event.type === 'tab.closeAll') return { type: 'tabs.navigate', to: '/dashboard' };
  return null;
}

async function run({ path, effects }: EdgePath<typeof tabsMachine>) {
  const persisted: Array<{ type: string; params: unknown }> = [];
  const emitted: TabsEmitted[] = [];
  const actor = createActor(
    tabsMachine.provide({
      actions: {
        persistViews: (_, params) => {
          persisted.push({ type: 'persistViews', params });
        },
      },
    }),
    { input: {} },
  );
  actor.on('tabs.navigate', (e) => emitted.push(e));
  actor.start();
  let step = 0;
  let before = actor.getSnapshot();
  const exec = async ({ event }: { event: any }) => {
    before = actor.getSnapshot();
    actor.send(event);
  };
  await model.testPath(path as any, {
    states: {
      '*': (state) => {
        const expected = state as TabsSnapshot;
        const s = actor.getSnapshot();
        expect(s.value).toEqual(expected.value);
        expect(s.context).toEqual(expected.context);
        expect(persisted.splice(0)).toEqual(effects[step]);
        const nav = step === 0 ? null : expectedNavigation(before, path.steps[step].event);
        expect(emitted.splice(0)).toEqual(nav ? [nav] : []);
        step++;
      },
    },
    events: Object.fromEntries(['route.visited', 'tab.close', 'tab.closeOthers', 'tab.closeAll', 'session.ended'].map((t) => [t, exec])),
  });
}

describe('tabs machine model', () => {
  it('has a bounded graph with more than one reachable context', () => {
    expect(new Set(paths.map((p) => serialize(p.path.state))).size).toBeGreaterThan(10);
  });
  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_d, p) => {
    await run(p);
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
