// Visited views shown as tabs, and the views kept alive (§2 Tabs, §9: each capped at 10).
import { assign, emit, enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { MAX_CACHED_VIEWS, MAX_TABS } from '../contract';

export interface VisitedView { path: string; title: string }

export interface TabsContext {
  views: VisitedView[];
  /** Paths of kept-alive views, least recently visited first. */
  cached: string[];
  previousPath: string | null;
  currentPath: string | null;
}

export interface TabsInput { views?: VisitedView[] }

export type TabsEvent =
  /** `tab: false` (login, 403, 404…) tracks the path for "go back" without opening a tab. */
  | { type: 'route.visited'; path: string; title: string; cache: boolean; tab?: boolean }
  | { type: 'tab.close'; path: string }
  | { type: 'tab.closeOthers'; path: string }
  | { type: 'tab.closeAll' }
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

export const tabsMachine = setup({
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
  }),
  initial: 'open',
  states: {
    open: {
      on: {
        'route.visited': {
          actions: [
            assign(({ context, event }) => ({
              previousPath: context.currentPath !== event.path ? context.currentPath : context.previousPath,
              currentPath: event.path,
              views: event.tab === false ? context.views : addView(context.views, { path: event.path, title: event.title }, event.path),
              cached: event.cache ? touchCached(context.cached, event.path) : context.cached,
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
          actions: [
            assign({ views: [], cached: [] }),
            { type: 'persistViews', params: { views: [] } },
            emit({ type: 'tabs.navigate', to: DASHBOARD_PATH }),
          ],
        },
        'session.ended': {
          actions: [
            assign({ views: [], cached: [], previousPath: null, currentPath: null }),
            { type: 'persistViews', params: { views: [] } },
          ],
        },
      },
    },
  },
});

export type TabsActor = ActorRefFrom<typeof tabsMachine>;
export type TabsSnapshot = SnapshotFrom<typeof tabsMachine>;
