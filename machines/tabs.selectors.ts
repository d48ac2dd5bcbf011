import type { TabsSnapshot } from './tabs';

export const selectViews = (s: TabsSnapshot) => s.context.views;
export const selectCachedPaths = (s: TabsSnapshot) => s.context.cached;
export const selectCurrentPath = (s: TabsSnapshot) => s.context.currentPath;
