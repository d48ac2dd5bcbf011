// The route a (possibly kept-alive, hidden) view was opened for. Screens read their params here rather than
// from react-router, because a hidden view must keep the params of its own path, not the current one.
import { createContext, useContext } from 'react';
import type { RouteDef } from './routeTable';

export interface RouteInfo {
  route: RouteDef;
  params: Record<string, string | undefined>;
  path: string;
}

export const RouteContext = createContext<RouteInfo | null>(null);

export function useRouteInfo(): RouteInfo {
  const info = useContext(RouteContext);
  if (!info) throw new Error('useRouteInfo outside a routed view');
  return info;
}
