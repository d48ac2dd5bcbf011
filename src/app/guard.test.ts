import { describe, expect, it } from 'vitest';
import { guard, landingPath, matchRoute, needsClientFirst, openingScreens, pageTitle, type Visitor } from './guard';

const signedOut: Visitor = { signedIn: false, held: new Set(), clientId: null };
const admin: Visitor = { signedIn: true, held: new Set(['0.1', '9.2.0', '0.3.1.0', '3.7.0']), clientId: 1 };
const visit = (path: string, v: Visitor) => guard(matchRoute(path.split('?')[0]).route, v, path);

describe('the route guard (§4)', () => {
  it('lets open routes pass for everyone', () => {
    expect(visit('/login', signedOut)).toEqual({ kind: 'pass' });
    expect(visit('/login', admin)).toEqual({ kind: 'pass' });
    expect(visit('/403-access-denied', signedOut)).toEqual({ kind: 'pass' });
    expect(visit('/no/such/page', admin)).toEqual({ kind: 'pass' });
  });

  it('shows 404 for unknown paths and for the wrong case', () => {
    expect(matchRoute('/no/such/page').route.screen).toBe('notFound');
    expect(matchRoute('/Dashboard').route.screen).toBe('notFound');
    expect(matchRoute('/dashboard').route.screen).toBe('dashboard');
  });

  it('sends a signed-in user back one step from signed-out-only routes', () => {
    for (const p of ['/reset-password', '/forgot-password']) {
      expect(visit(p, admin)).toEqual({ kind: 'back' });
      expect(visit(p, signedOut)).toEqual({ kind: 'pass' });
    }
  });

  it('lets a sign-in screen hand a signed-in user over to where the sign-in leads, signed-out-only or not', () => {
    // /login-remake is signed-out-only (§2), but the sign-in made on it decides where its user goes (its return
    // address): sending them back one step instead dropped `?redirect=` (found by hand, 2026-12-06)
    for (const p of ['/login-remake', '/login']) {
      expect(visit(p, admin)).toEqual({ kind: 'pass' });
      expect(visit(p, signedOut)).toEqual({ kind: 'pass' });
    }
    expect(matchRoute('/login-remake').route.type).toBe('RESTRICTED');
  });

  it('sends signed-out visitors of default routes to login with the path to return to', () => {
    expect(visit('/manage/identities?q=x', signedOut)).toEqual({ kind: 'redirect', to: '/login?redirect=%2Fmanage%2Fidentities%3Fq%3Dx' });
    expect(visit('/profile', signedOut)).toEqual({ kind: 'redirect', to: '/login?redirect=%2Fprofile' });
  });

  it('sends a signed-in user without the privilege to 403, any one of several being enough', () => {
    expect(visit('/monitor/alarms', admin)).toEqual({ kind: 'redirect', to: '/403-access-denied' });
    expect(visit('/manage/identities', admin)).toEqual({ kind: 'pass' });
    expect(visit('/attendance/leave-category/edit/4', admin)).toEqual({ kind: 'pass' });
  });

  it('sends everyone to 403 from a route with an empty privilege list', () => {
    const route = { ...matchRoute('/dashboard').route, privileges: [], redirect: undefined };
    expect(guard(route, admin, '/dashboard')).toEqual({ kind: 'redirect', to: '/403-access-denied' });
  });

  it('needs every privilege in ALL mode', () => {
    const route = { ...matchRoute('/manage/identities').route, privileges: ['0.3.1.0', '0.3.1.1'], mode: 'ALL' as const };
    expect(guard(route, admin, '/x')).toEqual({ kind: 'redirect', to: '/403-access-denied' });
    expect(guard(route, { ...admin, held: new Set(['0.3.1.0', '0.3.1.1']) }, '/x')).toEqual({ kind: 'pass' });
  });

  it('sends the dashboard to the clients list while no client is selected', () => {
    expect(visit('/dashboard', { ...admin, clientId: null })).toEqual({ kind: 'redirect', to: '/manage/clients' });
    expect(visit('/dashboard', admin)).toEqual({ kind: 'pass' });
  });

  it('redirects / and /video to the dashboard', () => {
    expect(visit('/', signedOut)).toEqual({ kind: 'redirect', to: '/dashboard' });
    expect(visit('/video', { ...admin, held: new Set(['2.0.0']) })).toEqual({ kind: 'redirect', to: '/dashboard' });
  });

  it('titles the page from the route title', () => {
    expect(pageTitle(matchRoute('/no/such').route)).toMatch(/^Page Not Found/);
    expect(pageTitle(matchRoute('/attendance/summaries').route)).toMatch(/^Attendance Summaries/);
  });
});

describe('dashboard without a selected client', () => {
  it('goes to the clients screen even before any client privilege is held', async () => {
    const { ROUTES } = await import('./routeTable');
    const dashboard = ROUTES.find((r) => r.path === '/dashboard')!;
    const visitor: Visitor = { signedIn: true, held: new Set(['9.2.0']), clientId: null };
    const d = guard(dashboard, visitor, '/dashboard');
    expect(d).toEqual({ kind: 'redirect', to: '/manage/clients' });
  });
});

describe('needsClientFirst: why Access denied', () => {
  it('is so for someone signed in with no client selected who may open the clients screen, and for no one else', () => {
    const platform: Visitor = { signedIn: true, held: new Set(['9.2.0']), clientId: null };
    expect(needsClientFirst(platform)).toBe(true);
    expect(needsClientFirst({ ...platform, clientId: 1 })).toBe(false);
    expect(needsClientFirst({ ...platform, held: new Set(['0.1']) })).toBe(false);
    expect(needsClientFirst({ ...platform, signedIn: false })).toBe(false);
  });
});

describe('landingPath (issue 10)', () => {
  const operator = { signedIn: true, held: new Set(['0.1', '0.2.1.0']), clientId: 1 };
  it('follows a return address the user may open', () => {
    expect(landingPath('/monitor/alarms?x=1', operator)).toBe('/monitor/alarms?x=1');
  });
  it('goes home instead of to a page outside the user’s roles', () => {
    expect(landingPath('/manage/clients', operator)).toBe('/dashboard');
  });
  it('goes home without an address', () => {
    expect(landingPath(null, operator)).toBe('/dashboard');
  });
});

describe('the screens a console opens on (issue 48: fetched with its code)', () => {
  it("is the address's screen, through the home page's redirect to the dashboard", () => {
    expect(openingScreens('/', '')).toEqual(['dashboard']);
    expect(openingScreens('/dashboard', '')).toEqual(['dashboard']);
    expect(openingScreens('/monitor/alarms', '?x=1')).toEqual(['alarms']);
    expect(openingScreens('/no/such/page', '')).toEqual(['notFound']);
  });

  it('is on the sign-in screen also where a sign-in leads: the address to return to, else the dashboard', () => {
    expect(openingScreens('/login', '')).toEqual(['login', 'dashboard']);
    expect(openingScreens('/login', '?redirect=%2Fmonitor%2Falarms%3Fpage%3D2')).toEqual(['login', 'alarms']);
    expect(openingScreens('/login', '?redirect=%2F')).toEqual(['login', 'dashboard']);
    // the centered sign-in page hands over as the split one does (it counted as the opening screen before the route said so)
    expect(openingScreens('/login-remake', '')).toEqual(['loginRemake', 'dashboard']);
    expect(openingScreens('/login-remake', '?redirect=%2Fmonitor%2Falarms')).toEqual(['loginRemake', 'alarms']);
  });
});
