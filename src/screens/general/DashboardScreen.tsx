// Pages of widgets per user (user.dashboardPages), fed by the dashboard endpoint (live: useLiveDashboard). Issue 10:
// the server answers only the parts the user may see (the privilege of the screen owning the data), and a widget is
// drawn only when its part arrived. The widgets under the counts (./DashboardWidgets.tsx, with the charts: visx,
// src/ui/BarChart.tsx) load lazily once the counts are drawn, so a cold dashboard waits for the counts only.
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, Icon, NonIdealState, Spinner, Tab, Tabs, type IconName } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { formatNumber, type DashboardPage, type DashboardSummary } from '../../../contract';
import { selectServerAlarmCount } from '../../../machines/alarms.selectors';
import { selectUser } from '../../../machines/session.selectors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { openingScreenRead } from '../../hooks/console';
import { tx } from '../../i18n';
import { PageHeader } from '../../ui/PageHeader';
import { useLiveDashboard } from './useLiveDashboard';
import { HandoverCard } from './HandoverCard';

type CountKey = 'identities' | 'activeCredentials' | 'divisions' | 'doors' | 'controllers' | 'openAlarms';
const COUNTS: Record<CountKey, { title: string; icon: string; to?: string; intent?: string }> = {
  openAlarms: { title: 'Open alarms', icon: 'warning-sign', to: '/monitor/alarms', intent: 'danger' },
  identities: { title: 'Identities', icon: 'people', to: '/manage/identities' },
  activeCredentials: { title: 'Active credentials', icon: 'credit-card', to: '/manage/identities' },
  doors: { title: 'Doors', icon: 'key-enter', to: '/configure/doors' },
  controllers: { title: 'Controllers', icon: 'desktop', to: '/hardware/controllers' },
  divisions: { title: 'Divisions', icon: 'diagram-tree', to: '/configure/division' },
};
const CHARTS = ['visitorsToday', 'attendanceToday', 'alarmsByPriority', 'alarmsPerHour', 'eventsPerHour', 'doorStatus', 'recentChanges'];
const ALL_WIDGETS = [...Object.keys(COUNTS), ...CHARTS];
export const DEFAULT_PAGES: DashboardPage[] = [{ pageNum: 1, widgets: ALL_WIDGETS.map((id) => ({ id })) }];

/** The part of the server's answer a widget draws; a widget whose part did not come is not the user's to see. */
const PART: Record<string, keyof DashboardSummary> = { doorStatus: 'doorsByState' };
const isShown = (id: string, data: DashboardSummary) => {
  const part = PART[id] ?? (id as keyof DashboardSummary);
  return !ALL_WIDGETS.includes(id) || data[part] !== undefined;
};

export function DashboardScreen() {
  const session = useSystemActor('session');
  const user = useSelector(session, selectUser);
  const live = useLiveDashboard();
  const data = live.data;
  // pages with nothing this user may see are left out (HR has no activity report, so no "recent changes" page)
  const pages = useMemo(() => {
    const all = user?.dashboardPages.length ? [...user.dashboardPages].sort((a, b) => a.pageNum - b.pageNum) : DEFAULT_PAGES;
    return data ? all.map((p) => ({ ...p, widgets: p.widgets.filter((w) => isShown(w.id, data)) })).filter((p) => p.widgets.length) : all;
  }, [user, data]);
  const [page, setPage] = useState(pages[0]?.pageNum ?? 1); // visual: which page is shown
  const current = pages.find((p) => p.pageNum === page) ?? pages[0];

  // one element per answer: the pages' Tabs measures its selection indicator (a forced layout) whenever a tab's
  // panel changes, so the panel is not rebuilt by the screen's other re-renders (refresh status, user)
  const widgets = useMemo(
    () =>
      data && current ? (
        <>
          <div className="gh-dash" data-testid="dash-counts">
            {current.widgets
              .filter((w) => w.id in COUNTS)
              .map((w) => (
                <CountWidget key={w.id} id={w.id as CountKey} data={data} />
              ))}
          </div>
          <div className="gh-dash gh-dash--charts" data-testid="dash-charts">
            <LaterWidgets ids={current.widgets.filter((w) => !(w.id in COUNTS)).map((w) => w.id)} data={data} />
          </div>
        </>
      ) : null,
    [data, current],
  );

  return (
    <div className="gh-page" data-testid="dashboard">
      <PageHeader
        title={tx('Dashboard')}
        icon="dashboard"
        description={user ? tx('Welcome, {name}. Live figures of your client.', { name: user.name }) : undefined}
        actions={
          <Button icon="refresh" variant="outlined" loading={live.status === 'active'} onClick={live.reload} aria-label={tx('Refresh the dashboard')}>
            {tx('Refresh')}
          </Button>
        }
      />
      {/* issue 31: the shift that ended last, to acknowledge on sign-in */}
      <HandoverCard />
      {live.status === 'error' && !live.data && (
        <Callout intent="danger" icon="error">
          {tx('The dashboard data could not be loaded.')}
        </Callout>
      )}
      {!live.data && live.status !== 'error' && <NonIdealState icon={<Spinner />} title={tx('Loading the dashboard…')} />}
      {data && !current && (
        <NonIdealState icon="dashboard" title={tx('Nothing to show yet')} description={tx("Your privileges answer none of the dashboard's widgets.")} />
      )}
      {/* with more than one page the widgets are the selected tab's panel (a tab controls a panel that exists); not
          animated (issue 48): the sliding indicator measures the selected tab as it mounts, a layout of the whole page
          forced in the middle of the cold dashboard's first commit (12 ms of its longest task), and its underline is the
          selected tab's own without it */}
      {pages.length > 1 ? (
        <Tabs
          id="dashboard-pages"
          selectedTabId={page}
          onChange={(id) => setPage(Number(id))}
          className="gh-dash__tabs"
          renderActiveTabPanelOnly
          animate={false}
        >
          {pages.map((p) => (
            <Tab key={p.pageNum} id={p.pageNum} title={tx('Page {n}', { n: p.pageNum })} panel={widgets ?? undefined} />
          ))}
        </Tabs>
      ) : (
        widgets
      )}
    </div>
  );
}

function CountWidget({ id, data }: { id: CountKey; data: DashboardSummary }) {
  // the open-alarm count is live (the alarms actor hears /alarmcount); shown only when the server answered it
  const liveAlarms = useSelector(useSystemActor('alarms'), selectServerAlarmCount);
  if (data[id] === undefined) return null;
  const c = COUNTS[id];
  const value = id === 'openAlarms' ? liveAlarms : data[id]!;
  const body = (
    <Card className={`gh-stat${c.intent === 'danger' && value > 0 ? ' gh-stat--alert' : ''}`} interactive={!!c.to} data-testid={`widget-${id}`}>
      <span className="gh-stat__icon">
        <Icon icon={c.icon as IconName} size={18} />
      </span>
      <div>
        <div className="gh-stat__value" title={String(value)}>
          {formatNumber(value)}
        </div>
        <div className="gh-stat__label">{tx(c.title)}</div>
      </div>
    </Card>
  );
  return c.to ? (
    <Link to={c.to} className="gh-stat__link">
      {body}
    </Link>
  ) : (
    body
  );
}

const Widgets = lazy(() => import('./DashboardWidgets').then((m) => ({ default: m.DashboardWidgets })));
const widgetsSpinner = (
  <div className="gh-dash__chart-loading">
    <Spinner size={20} />
  </div>
);

/** The widgets under the counts (./DashboardWidgets.tsx: the charts, figures, door status and recent changes), loaded
 *  once the opening screen is read and drawn. */
function LaterWidgets({ ids, data }: { ids: string[]; data: DashboardSummary }) {
  const painted = useAfterFirstPaint();
  return painted ? (
    <Suspense fallback={widgetsSpinner}>
      <Widgets ids={ids} data={data} />
    </Suspense>
  ) : (
    widgetsSpinner
  );
}

/** True once the console's opening screen has what it reads first (src/hooks/console.ts openingScreenRead: a cold
 *  console's counts drawn, at the latest 2 s after they were shown), the frame that drew the caller is on screen and the
 *  main thread is idle (at most a second later). Issue 48: the charts' code is fetched after what the opening screen
 *  needs and after the work of drawing it, never in the middle of it, so it is never among what a cold dashboard waits
 *  for. */
function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false); // visual: the opening screen is read and drawn, and the main thread idle
  useEffect(() => {
    let gone = false;
    let frame = 0;
    let timer = 0;
    let idle = 0;
    const idleThen = (then: () => void) => (typeof requestIdleCallback === 'function' ? (idle = requestIdleCallback(then, { timeout: 1_000 })) : then());
    void openingScreenRead().then(() => {
      if (gone) return;
      frame = requestAnimationFrame(() => {
        timer = window.setTimeout(() => idleThen(() => setPainted(true)));
      });
    });
    return () => {
      gone = true;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      if (idle) cancelIdleCallback(idle);
    };
  }, []);
  return painted;
}
