// §4 route guard as a pure function: where a visit to a path ends up, given who is signed in.
import { routeTitle } from '../i18n';
import { matchPath } from 'react-router-dom';
import { hasPrivilege } from '../../contract';
import { CLIENTS, DASHBOARD, FORBIDDEN, LOGIN, NOT_FOUND_ROUTE, ROUTES, type RouteDef, type ScreenKey } from './routeTable';

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string | undefined>;
}

/** The route for a pathname; matched case-sensitively to the end (§2), else the 404 route. */
export function matchRoute(pathname: string, routes: readonly RouteDef[] = ROUTES): RouteMatch {
  for (const route of routes) {
    const m = matchPath({ path: route.path, caseSensitive: true, end: true }, pathname);
    if (m) return { route, params: m.params };
  }
  return { route: NOT_FOUND_ROUTE, params: {} };
}

/** The screens a console started at this address opens on (issue 48: their chunks are asked for with the console's
 *  code): the address's (through an `always` redirect: `/` is the dashboard), and on the sign-in screen also the one
 *  a sign-in leads to, the address it returns to or the dashboard. */
export function openingScreens(pathname: string, search: string): ScreenKey[] {
  const at = (path: string) => {
    const { route } = matchRoute(path);
    return route.redirect?.kind === 'always' ? matchRoute(route.redirect.to).route : route;
  };
  const route = at(pathname);
  if (!route.handsOver) return [route.screen];
  const back = new URLSearchParams(search).get('redirect');
  return [route.screen, at(back ? back.split('?')[0] : DASHBOARD).screen];
}

export interface Visitor {
  signedIn: boolean;
  held: ReadonlySet<string>;
  clientId: number | null;
}

export type GuardDecision =
  | { kind: 'pass' }
  | { kind: 'redirect'; to: string }
  /** signed-out-only route visited while signed in: one step back (the shell falls back to the dashboard). */
  | { kind: 'back' };

/** `/login?redirect=…`: where to return after signing in (§4 redirect-after-login). */
export function loginWithRedirect(path: string): string {
  return path && path !== '/' && !path.startsWith(LOGIN) ? `${LOGIN}?redirect=${encodeURIComponent(path)}` : LOGIN;
}

/** A rule's target for a signed-in user, or null when they may stay (§4 "if the computed path differs"). */
export function redirectTarget(route: RouteDef, v: Visitor): string | null {
  const rule = route.redirect;
  if (!rule) return null;
  if (rule.kind === 'always') return rule.to;
  if (rule.kind === 'clientRequired') return v.clientId === null ? rule.to : null;
  return null;
}

/** `fullPath` is pathname + search, carried to the login page when a sign-in is needed. */
export function guard(route: RouteDef, v: Visitor, fullPath: string): GuardDecision {
  if (route.redirect?.kind === 'always' && route.type === 'PUBLIC') return { kind: 'redirect', to: route.redirect.to };
  // open routes always pass
  if (route.type === 'PUBLIC') return { kind: 'pass' };
  // signed-out-only routes send a signed-in user back one step; a sign-in screen (RouteDef.handsOver) hands them over
  // itself, to the return address its sign-in carried (one they may open) or the dashboard, as /login does
  if (route.type === 'RESTRICTED') return v.signedIn && !route.handsOver ? { kind: 'back' } : { kind: 'pass' };
  // default routes need sign-in, otherwise login carrying a redirect-after-login value
  if (!v.signedIn) return { kind: 'redirect', to: loginWithRedirect(fullPath) };
  // a redirect rule comes first: with no client selected the user holds no client privileges yet, and the
  // dashboard must send them to the clients screen (§2), not to 403
  const to = redirectTarget(route, v);
  if (to && to !== route.path) return { kind: 'redirect', to };
  // an empty privilege list goes to 403
  if (route.privileges && route.privileges.length === 0) return { kind: 'redirect', to: FORBIDDEN };
  if (!hasPrivilege(v.held, route.privileges, route.mode ?? 'ONLY_ONE')) return { kind: 'redirect', to: FORBIDDEN };
  return { kind: 'pass' };
}

/**
 * Why Access denied, for the screen to say: someone who picks a client first (the platform's administrator) holds no
 * client's privileges until they do, so with none selected and the clients screen theirs, a client's screen is
 * theirs once they choose one, not a matter for an administrator.
 */
export function needsClientFirst(v: Visitor): boolean {
  if (!v.signedIn || v.clientId !== null) return false;
  const clients = ROUTES.find((r) => r.path === CLIENTS);
  return !!clients && canOpen(clients, v);
}

/** Whether a signed-in user may see a route at all (sidebar, links): privileges and redirect rules. */
export function canOpen(route: RouteDef, v: Visitor): boolean {
  return guard(route, v, route.path).kind === 'pass';
}

/**
 * Issue 10: where a user lands after signing in. A return address is followed only when this user may open it
 * (another user's page, or a page outside their roles, would leave them on Access denied): else their home.
 */
export function landingPath(candidate: string | null, v: Visitor): string {
  if (!candidate) return DASHBOARD;
  const pathname = candidate.split(/[?#]/)[0];
  const { route } = matchRoute(pathname);
  const d = guard(route, v, candidate);
  return d.kind === 'redirect' && d.to === FORBIDDEN ? DASHBOARD : candidate;
}

/** §2: the page title comes from the route title (in the console's language). */

export function pageTitle(route: RouteDef): string {
  return `${routeTitle(route)} · Gatehouse`;
}

export { DASHBOARD };
