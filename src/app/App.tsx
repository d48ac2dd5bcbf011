// The console's root: router (history mode), hotkeys, toasts, error boundary, and the guarded route view.
import { Suspense, useEffect, useMemo } from 'react';
import { BrowserRouter, useLocation, useNavigate } from 'react-router-dom';
import { HotkeysProvider } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { selectClientId, selectHeldPrivileges, selectIsRestoring, selectIsSignedIn, selectSignedOutOnPurpose } from '../../machines/session.selectors';
import { ErrorBoundary } from './ErrorBoundary';
import { Feedback } from './Feedback';
import { OpeningScreenShown } from './OpeningScreenShown';
import { guard, matchRoute, openingScreens, pageTitle } from './guard';
import { DASHBOARD, LOGIN } from './routeTable';
import { RouteContext } from './RouteContext';
import { SCREENS } from './screens';
import { loadDrawers, Shell } from './Shell';
import { FullPageSpinner } from '../ui/FullPageSpinner';
import { loadPopovers } from '../ui/LazyPopover';
import { loadToaster, Toasts } from './Toasts';
import { useSystemActor } from '../hooks/useSystemActor';
import { wireConsole } from '../hooks/wiring';
import { consoleWiring } from '../system/wiring';
import { useTourAtSignIn } from './useTourAtSignIn';
import { useTimeAndLanguageSync } from './useTimeAndLanguageSync';
import { routeTitle, tx, useLocale } from '../i18n';
import { installIcons, installLargeIcons } from './icons';
import { nextTask } from './nextTask';

// the one place the shell gives the hooks (and so the views) the console's wiring, before the first render (issue 28)
wireConsole(consoleWiring);

/** Settles when the console may render (src/main.tsx waits for it): the icons are ready before the first render, so
 *  none is drawn with the icon font first. */
export const consoleReady: Promise<void> = installIcons().catch(() => undefined);

/** Issue 48: before the first render (src/main.tsx), the system's machines are built in a task of their own
 *  (machines/defined.ts), the actor system starts in the next, and the render comes in the one after: none of them is
 *  part of the first render's first slice, nor of the modules' evaluation. */
export function startConsole(): Promise<void> {
  return nextTask()
    .then(consoleWiring.prepareSystem)
    .then(nextTask)
    .then(() => void consoleWiring.getSystem())
    .then(nextTask);
}
/** Settles once the opening screen has what it reads first (src/system/openingScreen.ts). */
export const openingScreenRead: Promise<void> = consoleWiring.openingScreenRead;
// issue 48: the large icons once the opening screen has what it reads (src/app/icons.ts)
void consoleWiring.openingScreenRead.then(installLargeIcons).catch(() => undefined);
// issue 48: the header's and the tabs' menus and tips (floating-ui) then too, unless one was used first (src/ui/LazyPopover.tsx)
void consoleWiring.openingScreenRead.then(loadPopovers).catch(() => undefined);
// issue 48: and Blueprint's overlays, the drawers' and the toaster's (src/app/Shell.tsx, src/app/Toasts.tsx)
void consoleWiring.openingScreenRead.then(() => Promise.all([loadDrawers(), loadToaster()])).catch(() => undefined);

// Issue 48: the screen the console opens on (the dashboard, most often) is asked for as soon as the console's modules
// are evaluated, not after the shell's first render found it missing: its chunk arrives while the shell renders. Asked
// in a task of its own, not as the modules are evaluated (scripts/startChunks.ts topLevelRequests says why).
setTimeout(() => {
  for (const key of openingScreens(window.location.pathname, window.location.search)) void SCREENS[key].preload().catch(() => undefined);
}, 0);

export function App() {
  useTourAtSignIn();
  useTimeAndLanguageSync();
  return (
    <BrowserRouter>
      <HotkeysProvider>
        <ErrorBoundary where={tx('the console')}>
          <Toasts />
          <Feedback />
          <GuardedView />
        </ErrorBoundary>
      </HotkeysProvider>
    </BrowserRouter>
  );
}

function GuardedView() {
  const location = useLocation();
  const navigate = useNavigate();
  const locale = useLocale(); // the page title follows the language
  const session = useSystemActor('session');
  const tabs = useSystemActor('tabs');
  const restoring = useSelector(session, selectIsRestoring);
  const signedIn = useSelector(session, selectIsSignedIn);
  const held = useSelector(session, selectHeldPrivileges);
  const clientId = useSelector(session, selectClientId);

  const { route, params } = useMemo(() => matchRoute(location.pathname), [location.pathname]);
  const fullPath = location.pathname + location.search;
  const signedOutOnPurpose = useSelector(session, selectSignedOutOnPurpose);
  const decision = restoring ? null : guard(route, { signedIn, held, clientId }, fullPath);
  const kind = decision?.kind ?? 'waiting';
  // issue 10: the screen an operator signed out on is not a return address for whoever signs in next
  const target = decision?.kind === 'redirect' ? (signedOutOnPurpose && decision.to.startsWith(`${LOGIN}?`) ? LOGIN : decision.to) : null;

  useEffect(() => {
    if (kind === 'redirect' && target) navigate(target, { replace: true });
    if (kind === 'back') {
      const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
      if (idx > 0) navigate(-1);
      else navigate(DASHBOARD, { replace: true });
    }
  }, [kind, target, navigate, fullPath]);

  useEffect(() => {
    if (kind !== 'pass') return;
    document.title = pageTitle(route);
    // a route with parameters shows one record: it belongs to the client it was opened under (issue 10)
    const scoped = Object.keys(params).length > 0;
    tabs.send({ type: 'route.visited', path: location.pathname, title: route.title, cache: route.cache, tab: route.layout && signedIn, scoped });
  }, [kind, route, params, location.pathname, tabs, signedIn, locale]);

  // The shell listens to the tabs actor: closing the current tab goes back, or to the dashboard (§2).
  useEffect(() => {
    const sub = tabs.on('tabs.navigate', (e) => (e.to === -1 ? navigate(-1) : navigate(e.to)));
    return () => sub.unsubscribe();
  }, [tabs, navigate]);

  if (kind !== 'pass') return <FullPageSpinner label={restoring ? tx('Restoring your session…') : tx('Loading…')} />;

  if (route.layout && signedIn) return <Shell current={{ route, params, path: location.pathname }} />;
  const Screen = SCREENS[route.screen];
  return (
    <RouteContext.Provider value={{ route, params, path: location.pathname }}>
      <Suspense fallback={<FullPageSpinner />}>
        <ErrorBoundary where={routeTitle(route)} key={location.pathname}>
          <Screen />
          {/* issue 48: a sign-in screen is not what a console waits for (RouteDef.handsOver): the screen the sign-in
              leads to is the opening one (the live connection's libraries, the overlays and the later widgets wait
              for its answers, not for this screen) */}
          {!route.handsOver && <OpeningScreenShown />}
        </ErrorBoundary>
      </Suspense>
    </RouteContext.Provider>
  );
}
