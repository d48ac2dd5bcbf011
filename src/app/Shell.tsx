// The layout of signed-in screens: sidebar, header, tabs, kept-alive views and the settings drawer.
import { Activity, Suspense, lazy, useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { SIDEBAR_WIDTH_PX } from '../../contract';
import { selectClientId, selectHeldPrivileges, selectIsSignedIn, selectSettings, selectUser } from '../../machines/session.selectors';
import { selectCachedPaths } from '../../machines/tabs.selectors';
import { selectTourIsShowing } from '../../machines/tour.selectors';
import { FullPageSpinner } from '../ui/FullPageSpinner';
import { readSidebarOpen, readSize, writeSidebarOpen, writeSize, type UiSize } from './cookies';
import { ErrorBoundary } from './ErrorBoundary';
import { canOpen, matchRoute } from './guard';
import { Header } from './Header';
import { OpeningScreenShown } from './OpeningScreenShown';
import { RouteContext, type RouteInfo } from './RouteContext';
import { SCREENS } from './screens';
import { Sidebar } from './Sidebar';
import { TabsBar } from './TabsBar';
import { useIsMobile } from '../hooks/useMediaQuery';
import { useSystemActor } from '../hooks/useSystemActor';
import { routeTitle, tx, useLocale } from '../i18n';

export const COLLAPSED_SIDEBAR_PX = 56;

export function Shell({ current }: { current: RouteInfo }) {
  const session = useSystemActor('session');
  const signedIn = useSelector(session, selectIsSignedIn);
  const held = useSelector(session, selectHeldPrivileges);
  const clientId = useSelector(session, selectClientId);
  const settings = useSelector(session, selectSettings);
  const userId = useSelector(session, (s) => selectUser(s)?.id ?? null);
  const visitor = useMemo(() => ({ signedIn, held, clientId }), [signedIn, held, clientId]);
  const mobile = useIsMobile();

  // app display state (§3): visual only, remembered in cookies
  const [open, setOpen] = useState(readSidebarOpen); // visual: the sidebar open
  // issue 48: the two drawers are drawn once first opened (null: never yet), their code fetched then (see below)
  const [mobileOpen, setMobileOpen] = useState<boolean | null>(null); // visual: the sidebar drawer open on a phone
  const [size, setSize] = useState<UiSize>(readSize); // visual: the text size chosen on this browser
  const [settingsOpen, setSettingsOpen] = useState<boolean | null>(null); // visual: the display settings open
  const toggle = () => {
    if (mobile) return setMobileOpen((o) => !o);
    setOpen((o) => {
      writeSidebarOpen(!o);
      return !o;
    });
  };
  const changeSize = (s: UiSize) => {
    writeSize(s);
    setSize(s);
  };

  const sidebarWidth = mobile ? 0 : open ? SIDEBAR_WIDTH_PX : COLLAPSED_SIDEBAR_PX;
  const style = { '--gh-accent': settings.theme, '--gh-sidebar-width': `${sidebarWidth}px` } as CSSProperties;
  const sidebar = (collapsed: boolean, onNavigate?: () => void) => (
    <Sidebar visitor={visitor} collapsed={collapsed} showLogo={settings.sidebarLogo} currentSection={current.route.section} onNavigate={onNavigate} />
  );

  return (
    <div
      className={`gh-app gh-size-${size}${mobile ? ' gh-mobile' : ''}${settings.fixedHeader ? ' gh-fixed-header' : ''}`}
      style={style}
      data-testid="app-shell"
    >
      {/* WCAG 2.4.1: the first Tab stop skips the menu and the header to the open view (shown only while focused) */}
      <a
        className="gh-skip-link"
        href="#gh-main"
        data-testid="skip-link"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('gh-main')?.focus();
        }}
      >
        {tx('Skip to content')}
      </a>
      {mobile ? (
        mobileOpen !== null && (
          <Suspense fallback={null}>
            <SidebarDrawer isOpen={mobileOpen} onClose={() => setMobileOpen(false)}>
              {sidebar(false, () => setMobileOpen(false))}
            </SidebarDrawer>
          </Suspense>
        )
      ) : (
        <aside className="gh-app__sidebar" style={{ width: sidebarWidth }}>
          {sidebar(!open)}
        </aside>
      )}
      <div className="gh-app__main">
        <div className="gh-app__top">
          <Header route={current.route} onToggleSidebar={toggle} sidebarOpen={mobile ? !!mobileOpen : open} onOpenSettings={() => setSettingsOpen(true)} />
          {settings.tagsView && <TabsBar currentPath={current.path} />}
        </div>
        <main className="gh-app__views" id="gh-main" tabIndex={-1}>
          <KeptAliveViews
            current={current}
            tenant={`${userId}:${clientId}`}
            allowed={(path) => {
              const m = matchRoute(path);
              return m.route.layout && canOpen(m.route, visitor);
            }}
          />
        </main>
      </div>
      {settingsOpen !== null && (
        <Suspense fallback={null}>
          <SettingsDrawer isOpen={settingsOpen} onClose={() => setSettingsOpen(false)} size={size} onSize={changeSize} />
        </Suspense>
      )}
      <TourWhenShown />
    </div>
  );
}

// Issue 48: Blueprint's overlays (Overlay2, its transitions and portal) are out of the console's start: the drawers
// are chunks drawn once first opened, and fetched once the opening screen has what it reads, so a first click does
// not wait for them (the toaster's likewise, ./Toasts.tsx).
const SettingsDrawer = lazy(() => import('./SettingsDrawer').then((m) => ({ default: m.SettingsDrawer })));
const SidebarDrawer = lazy(() => import('./SidebarDrawer').then((m) => ({ default: m.SidebarDrawer })));
export const loadDrawers = () => Promise.all([import('./SettingsDrawer'), import('./SidebarDrawer')]);

// Issue 48: the tour's overlay (its card, its placement beside the part it shows) is a chunk of its own, asked for when
// a tour starts (at a first sign-in, or from the profile menu), not with the console.
const TourOverlay = lazy(() => import('./TourOverlay').then((m) => ({ default: m.TourOverlay })));
function TourWhenShown() {
  const showing = useSelector(useSystemActor('tour'), selectTourIsShowing);
  return showing ? (
    <Suspense fallback={null}>
      <TourOverlay />
    </Suspense>
  ) : null;
}

/**
 * §2 keep-alive: the views in the tabs actor's `cached` list (at most 10) stay mounted under React `Activity`,
 * hidden when not current, so a revisited tab keeps its scroll, filters and form input. Kept in a stable
 * (alphabetical) DOM order so that a revisit never moves nodes. Every view is keyed by the user and client it
 * shows (issue 10): a client switch remounts it, so its lists, forms, caches and subscriptions start afresh
 * under the new client instead of showing the old one's records.
 */
function KeptAliveViews({ current, tenant, allowed }: { current: RouteInfo; tenant: string; allowed: (path: string) => boolean }) {
  const tabs = useSystemActor('tabs');
  const cached = useSelector(tabs, selectCachedPaths);
  const paths = useMemo(() => {
    const set = new Set(cached.filter(allowed));
    if (current.route.cache) set.add(current.path);
    return [...set].sort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cached, current.path, current.route.cache]);
  return (
    <>
      {paths.map((p) => (
        <Activity key={`${tenant}|${p}`} mode={p === current.path ? 'visible' : 'hidden'} name={p}>
          <View info={p === current.path ? current : { ...matchRoute(p), path: p }} active={p === current.path} />
        </Activity>
      ))}
      {!current.route.cache && <View key={`${tenant}|${current.path}`} info={current} active />}
    </>
  );
}

function View({ info, active }: { info: RouteInfo; active: boolean }) {
  const Screen = SCREENS[info.route.screen];
  useLocale(); // a language switch re-renders every kept-alive view (each shows again in the new language)

  return (
    <ScrollKeeper active={active} path={info.path}>
      <RouteContext.Provider value={info}>
        <ErrorBoundary where={routeTitle(info.route)}>
          <Suspense fallback={<FullPageSpinner />}>
            <Screen />
            <OpeningScreenShown />
          </Suspense>
        </ErrorBoundary>
      </RouteContext.Provider>
    </ScrollKeeper>
  );
}

/** Each view scrolls on its own; its position is restored when the view is shown again. */
function ScrollKeeper({ children, path, active }: { children: ReactNode; path: string; active: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const top = useRef(0); // visual: the last scroll position (measured)
  const onScroll = useCallback(() => {
    if (ref.current) top.current = ref.current.scrollTop;
  }, []);
  // a position to restore only: setting scrollTop lays the page out, inside the commit (issue 48: 12 ms of the cold
  // dashboard's first commit, setting a new view's 0), and a view shown again starts at 0 anyway
  useLayoutEffect(() => {
    if (active && ref.current && top.current !== 0) ref.current.scrollTop = top.current;
  }, [active]);
  return (
    <div ref={ref} className="gh-view" data-view-path={path} data-testid="view" onScroll={onScroll}>
      {children}
    </div>
  );
}
