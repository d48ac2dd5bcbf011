// Visited views shown as tabs, and the views kept alive (§2 Tabs, §9: each capped at 10).
import { assign, emit, enqueueActions, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { lazySetup } from './defined';
import { MAX_CACHED_VIEWS, MAX_TABS } from '../contract';

export interface VisitedView {
  path: string;
  title: string;
}

export interface TabsContext {
  views: VisitedView[];
  /** Paths of kept-alive views, least recently visited first. */
  cached: string[];
  previousPath: string | null;
  currentPath: string | null;
  /** Paths of views about one record (an edit form, a visitor's page): they belong to the client they came from. */
  scoped: string[];
}

export interface TabsInput {
  views?: VisitedView[];
}

export type TabsEvent =
  /** `tab: false` (login, 403, 404…) tracks the path for "go back" without opening a tab. */
  | { type: 'route.visited'; path: string; title: string; cache: boolean; tab?: boolean; scoped?: boolean }
  | { type: 'tab.close'; path: string }
  | { type: 'tab.closeOthers'; path: string }
  | { type: 'tab.closeAll' }
  /** From the session actor: another client was selected (issue 10). */
  | { type: 'session.clientChanged' }
  | { type: 'session.ended' };

/** Heard by the shell, which owns the router: a path to open, or -1 to go back one step. */
export type TabsEmitted = { type: 'tabs.navigate'; to: string | -1 };

export const DASHBOARD_PATH = '/dashboard';
export const LOGIN_PATH = '/login';

// ---------- pure helpers (tested) ----------

/** A new tab is appended; a known one keeps its place and takes the new title. Over the cap the oldest goes. */
export function addView(views: readonly VisitedView[], view: VisitedView, currentPath: string): VisitedView[] {
  const at = views.findIndex((v) => v.path === view.path);
  if (at >= 0) return views.map((v, i) => (i === at ? { ...v, title: view.title } : v));
  const next = [...views, view];
  while (next.length > MAX_TABS) {
    const oldest = next.findIndex((v) => v.path !== currentPath);
    next.splice(oldest, 1);
  }
  return next;
}

/** Kept-alive paths as an LRU list: a revisit moves to the end, the least recent is evicted past the cap. */
export function touchCached(cached: readonly string[], path: string): string[] {
  const next = [...cached.filter((p) => p !== path), path];
  return next.length > MAX_CACHED_VIEWS ? next.slice(next.length - MAX_CACHED_VIEWS) : next;
}

/** §2: closing the current tab goes back, or to the dashboard when the previous screen was login (or none). */
export function afterCloseTarget(previousPath: string | null, closedPath: string): string | -1 {
  if (previousPath === null || previousPath === LOGIN_PATH || previousPath === closedPath) return DASHBOARD_PATH;
  return -1;
}

export const tabsMachine = lazySetup({
  types: {
    context: {} as TabsContext,
    events: {} as TabsEvent,
    input: {} as TabsInput,
    emitted: {} as TabsEmitted,
  },
  actions: {
    // per-tab browser storage (src/system/browser.ts); tests and replay provide their own
    persistViews: (_, _params: { views: VisitedView[] }) => {},
  },
}).createMachine({
  id: 'tabs',
  context: ({ input }) => ({
    views: (input?.views ?? []).slice(-MAX_TABS),
    cached: [],
    previousPath: null,
    currentPath: null,
    scoped: [],
  }),
  initial: 'open',
  states: {
    open: {
      // What holds, written apart from the transitions (read by nothing in the machine): the model tests check it at
      // every step of every generated path (model-tests/harness.ts, checkPaths).
      meta: {
        invariants: {
          [`at most ${MAX_TABS} tabs, each path once`]: ({ context: c }: { context: TabsContext }) =>
            c.views.length <= MAX_TABS && new Set(c.views.map((v) => v.path)).size === c.views.length,
          [`at most ${MAX_CACHED_VIEWS} views kept alive, each once`]: ({ context: c }: { context: TabsContext }) =>
            c.cached.length <= MAX_CACHED_VIEWS && new Set(c.cached).size === c.cached.length,
          'the previous screen is another than the current one': ({ context: c }: { context: TabsContext }) =>
            c.previousPath === null || c.previousPath !== c.currentPath,
          'no previous screen without a current one': ({ context: c }: { context: TabsContext }) => c.currentPath !== null || c.previousPath === null,
          [`views of one record: each once, at most ${MAX_TABS}`]: ({ context: c }: { context: TabsContext }) =>
            c.scoped.length <= MAX_TABS && new Set(c.scoped).size === c.scoped.length,
        },
      },
      on: {
        'route.visited': {
          actions: [
            assign(({ context, event }) => ({
              previousPath: context.currentPath !== event.path ? context.currentPath : context.previousPath,
              currentPath: event.path,
              views: event.tab === false ? context.views : addView(context.views, { path: event.path, title: event.title }, event.path),
              cached: event.cache ? touchCached(context.cached, event.path) : context.cached,
              scoped: event.scoped ? [...context.scoped.filter((p) => p !== event.path), event.path].slice(-MAX_TABS) : context.scoped,
            })),
            { type: 'persistViews', params: ({ context }) => ({ views: context.views }) },
          ],
        },
        'tab.close': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const views = context.views.filter((v) => v.path !== event.path);
            enqueue.assign({ views, cached: context.cached.filter((p) => p !== event.path) });
            enqueue({ type: 'persistViews', params: { views } });
            if (event.path === context.currentPath) enqueue.emit({ type: 'tabs.navigate', to: afterCloseTarget(context.previousPath, event.path) });
          }),
        },
        'tab.closeOthers': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const views = context.views.filter((v) => v.path === event.path);
            enqueue.assign({ views, cached: context.cached.filter((p) => p === event.path) });
            enqueue({ type: 'persistViews', params: { views } });
            if (event.path !== context.currentPath) enqueue.emit({ type: 'tabs.navigate', to: event.path });
          }),
        },
        'tab.closeAll': {
          actions: [assign({ views: [], cached: [] }), { type: 'persistViews', params: { views: [] } }, emit({ type: 'tabs.navigate', to: DASHBOARD_PATH })],
        },
        // Issue 10: a kept-alive view shows the client it was opened under, so on a switch the hidden ones are
        // dropped (they open afresh when visited) and views of one record of the old client close; the shell
        // remounts the current view under the new client. From a closed record view the operator goes home.
        'session.clientChanged': {
          actions: enqueueActions(({ context, enqueue }) => {
            const current = context.currentPath;
            const currentScoped = current !== null && context.scoped.includes(current);
            const views = context.views.filter((v) => !context.scoped.includes(v.path));
            enqueue.assign({
              views,
              cached: context.cached.filter((p) => p === current && !currentScoped),
              scoped: [],
              previousPath: currentScoped ? null : context.previousPath,
            });
            enqueue({ type: 'persistViews', params: { views } });
            if (currentScoped) enqueue.emit({ type: 'tabs.navigate', to: DASHBOARD_PATH });
          }),
        },
        'session.ended': {
          actions: [assign({ views: [], cached: [], previousPath: null, currentPath: null, scoped: [] }), { type: 'persistViews', params: { views: [] } }],
        },
      },
    },
  },
});

export type TabsActor = ActorRefFrom<typeof tabsMachine>;
export type TabsSnapshot = SnapshotFrom<typeof tabsMachine>;
