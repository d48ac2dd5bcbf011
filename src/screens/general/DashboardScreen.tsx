// Pages of widgets per user (user.dashboardPages), fed by the dashboard endpoint (live: useLiveDashboard). Issue 10:
// the server answers only the parts the user may see (the privilege of the screen owning the data), and a widget is
// drawn only when its part arrived; the charts (recharts) load lazily, so only this screen pays for them.
import { lazy, Suspense, useEffect, useMemo, useState, type ComponentProps, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, HTMLTable, Icon, NonIdealState, Spinner, Tab, Tabs, Tag, type IconName } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { auditActionWords, auditEntityWords, formatNumber, hasPrivilege, PRIV, type DashboardPage, type DashboardSummary } from '../../../contract';
import { selectOpenByPriority, selectServerAlarmCount } from '../../../machines/alarms.selectors';
import { selectHeldPrivileges, selectUser } from '../../../machines/session.selectors';
import { countDoors, doorStateOf } from '../configure/doorStatus';
import { useLiveDoors } from '../configure/useLiveDoors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { getLocale, useT, tx } from '../../i18n';
import { useTime } from '../../ui/time';
import { PageHeader } from '../../ui/PageHeader';
import { useLiveDashboard } from './useLiveDashboard';
import { HandoverCard } from './HandoverCard';

const charts = () => import('./DashboardCharts');
const LazyPriorityChart = lazy(() => charts().then((m) => ({ default: m.PriorityChart })));
const LazyHourChart = lazy(() => charts().then((m) => ({ default: m.HourChart })));
const LazyVisitorsChart = lazy(() => charts().then((m) => ({ default: m.VisitorsChart })));
const PriorityChart = (p: ComponentProps<typeof LazyPriorityChart>) => (
  <InTurn>
    <LazyPriorityChart {...p} />
  </InTurn>
);
const HourChart = (p: ComponentProps<typeof LazyHourChart>) => (
  <InTurn>
    <LazyHourChart {...p} />
  </InTurn>
);
const VisitorsChart = (p: ComponentProps<typeof LazyVisitorsChart>) => (
  <InTurn>
    <LazyVisitorsChart {...p} />
  </InTurn>
);

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
            {current.widgets
              .filter((w) => !(w.id in COUNTS))
              .map((w) => (
                <Widget key={w.id} id={w.id} data={data} />
              ))}
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
      {/* with more than one page the widgets are the selected tab's panel (a tab controls a panel that exists) */}
      {pages.length > 1 ? (
        <Tabs id="dashboard-pages" selectedTabId={page} onChange={(id) => setPage(Number(id))} className="gh-dash__tabs" renderActiveTabPanelOnly>
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

/** A chart card: its title links to the screen behind the figures. */
function ChartCard({
  id,
  icon,
  title,
  to,
  aside,
  children,
}: {
  id: string;
  icon: IconName;
  title: string;
  to: string;
  aside?: ReactNode;
  children: ReactNode;
}) {
  const painted = useAfterFirstPaint();
  return (
    <Card className="gh-dash__chart" data-testid={`widget-${id}`}>
      <h5 className="bp6-heading gh-card-title">
        <Icon icon={icon} />{' '}
        <Link to={to} data-testid={`widget-${id}-link`}>
          {title}
        </Link>
        {aside && <span className="gh-card-title__aside bp6-text-muted">{aside}</span>}
      </h5>
      <Suspense fallback={chartSpinner}>{painted ? children : chartSpinner}</Suspense>
    </Card>
  );
}

const chartSpinner = (
  <div className="gh-dash__chart-loading">
    <Spinner size={20} />
  </div>
);

/** Issue 48: the dashboard's charts drawn together were one task of 140–250 ms of processor time (recharts, its store
 *  and selectors). They are drawn one at a time, in the order they asked, the next once the one before was drawn (or
 *  went away): the first 100–136 ms, the next about 45 (at load 6–9). */
const chartsWaiting: Array<(turn: boolean) => void> = [];
let chartDrawing: ((turn: boolean) => void) | null = null;
function nextChart(): void {
  const next = chartsWaiting.shift() ?? null;
  chartDrawing = next;
  if (next) window.setTimeout(() => chartDrawing === next && next(true));
}
function askChartTurn(chart: (turn: boolean) => void): void {
  chartsWaiting.push(chart);
  if (!chartDrawing) nextChart();
}
function leaveChartTurn(chart: (turn: boolean) => void): void {
  const at = chartsWaiting.indexOf(chart);
  if (at >= 0) chartsWaiting.splice(at, 1);
  if (chartDrawing === chart) nextChart();
}

/** A chart drawn in its turn; a spinner until then. */
function InTurn({ children }: { children: ReactNode }) {
  const [turn, setTurn] = useState(false); // visual: this chart's turn to be drawn came
  useEffect(() => {
    askChartTurn(setTurn);
    return () => leaveChartTurn(setTurn);
  }, []);
  return turn ? (
    <>
      {children}
      <ChartDrawn turn={setTurn} />
    </>
  ) : (
    chartSpinner
  );
}
/** Committed with its chart (the same Suspense boundary): the next chart's turn comes once this one was drawn at its
 *  size (recharts' ResponsiveContainer measures after its commit and draws again, a task later). */
function ChartDrawn({ turn }: { turn: (turn: boolean) => void }) {
  useEffect(() => {
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => leaveChartTurn(turn));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      leaveChartTurn(turn);
    };
  }, [turn]);
  return null;
}

/** True once the frame that first drew the caller is on screen and the main thread is idle (at most a second later):
 *  issue 48: the charts' code, recharts and d3, is fetched once the dashboard's counts are on screen and the work of
 *  drawing them is done, not in the middle of it (a chart drawn then made the opening screen's last long task). */
function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false); // visual: the first frame is drawn and the main thread idle
  useEffect(() => {
    let timer = 0;
    let idle = 0;
    const idleThen = (then: () => void) => (typeof requestIdleCallback === 'function' ? (idle = requestIdleCallback(then, { timeout: 1_000 })) : then());
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => idleThen(() => setPainted(true)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      if (idle) cancelIdleCallback(idle);
    };
  }, []);
  return painted;
}

function Widget({ id, data }: { id: string; data: DashboardSummary }) {
  const t = useT();
  const time = useTime();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  // open alarms by priority follow the alarms actor (live); the server's answer says whether to show them at all
  const byPriority = useSelector(useSystemActor('alarms'), selectOpenByPriority);
  switch (id) {
    case 'doorStatus':
      return data.doorsByState ? <DoorStatusWidget /> : null;
    case 'alarmsByPriority': {
      if (!data.alarmsByPriority) return null;
      const total = byPriority.reduce((n, p) => n + p.count, 0);
      return (
        <ChartCard id={id} icon="warning-sign" title={tx('Open alarms by priority')} to="/monitor/alarms" aside={tx('{n} open', { n: total })}>
          {total === 0 ? (
            <p className="bp6-text-muted gh-dash__ok">
              <Icon icon="tick-circle" intent="success" /> {tx('No open alarms.')}
            </p>
          ) : (
            <PriorityChart data={byPriority} />
          )}
        </ChartCard>
      );
    }
    case 'alarmsPerHour': {
      if (!data.alarmsPerHour) return null;
      const total = data.alarmsPerHour.reduce((n, h) => n + h.count, 0);
      const to = hasPrivilege(held, [PRIV.eventReport]) ? '/report/event?alert=true' : '/monitor/alarms';
      return (
        <ChartCard id={id} icon="timeline-bar-chart" title={tx('Alarms per hour')} to={to} aside={tx('{n} in 24 h', { n: formatNumber(total) })}>
          <HourChart data={data.alarmsPerHour} colour="#cd4246" what="alarms" />
        </ChartCard>
      );
    }
    case 'eventsPerHour': {
      if (!data.eventsPerHour) return null;
      const total = data.eventsPerHour.reduce((n, h) => n + h.count, 0);
      const to = hasPrivilege(held, [PRIV.events.view]) ? '/monitor/events' : '/report/event';
      return (
        <ChartCard id={id} icon="pulse" title={tx('Events per hour')} to={to} aside={tx('{n} in 24 h', { n: formatNumber(total) })}>
          <HourChart data={data.eventsPerHour} colour="#2d72d2" what="events" />
        </ChartCard>
      );
    }
    case 'attendanceToday': {
      // issue 50: HR's figure of the day (Daily Attendance's statuses of today, counted by the server)
      const a = data.attendanceToday;
      if (!a) return null;
      const figures = [
        ['present', a.present, 'Present'],
        ['late', a.late, 'Late'],
        ['not-yet', a.notYet, 'Not in yet'],
        ['absent', a.absent, 'Absent'],
        ['on-leave', a.onLeave, 'On leave'],
      ] as const;
      return (
        <ChartCard id={id} icon="time" title={tx('Attendance today')} to="/attendance/daily-attendance" aside={time.date(a.day)}>
          <div className="gh-dash__visitors">
            {figures.map(([status, n, label]) => (
              <span key={status} data-testid={`attendance-${status}`}>
                <strong>{formatNumber(n)}</strong> {tx(label)}
              </span>
            ))}
          </div>
          <p className="bp6-text-muted" data-testid="attendance-expected">
            {tx('{n} expected at work today', { n: formatNumber(a.expected) })}
          </p>
        </ChartCard>
      );
    }
    case 'visitorsToday': {
      const v = data.visitorsToday;
      if (!v) return null;
      return (
        <ChartCard id={id} icon="people" title={tx('Visitors today')} to="/visitor" aside={time.date(v.day)}>
          <div className="gh-dash__visitors">
            <span data-testid="visitors-expected">
              <strong>{v.expected}</strong> {tx('expected')}
            </span>
            <span data-testid="visitors-on-site">
              <strong>{v.onSite}</strong> {tx('on site')}
            </span>
            <span data-testid="visitors-left">
              <strong>{v.left}</strong> {tx('left')}
            </span>
          </div>
          {v.expected + v.onSite + v.left === 0 ? (
            <p className="bp6-text-muted">
              {tx('No visits today.')} <Link to="/visitor/register">{tx('Register a visitor')}</Link>
            </p>
          ) : (
            <VisitorsChart expected={v.expected} onSite={v.onSite} left={v.left} />
          )}
        </ChartCard>
      );
    }
    case 'recentChanges': {
      if (!data.recentChanges) return null;
      const now = Date.now();
      return (
        <Card className="gh-dash__wide" data-testid="widget-recentChanges">
          <h5 className="bp6-heading gh-card-title">
            <Icon icon="history" /> <Link to="/report/activity">{t('recentChanges')}</Link>
          </h5>
          {data.recentChanges.length === 0 ? (
            <p className="bp6-text-muted">{tx('No changes yet.')}</p>
          ) : (
            <HTMLTable compact striped className="gh-dash__table">
              <thead>
                <tr>
                  <th>{tx('When')}</th>
                  <th>{tx('Who')}</th>
                  <th>{tx('What')}</th>
                  <th>{tx('Record')}</th>
                </tr>
              </thead>
              <tbody>
                {data.recentChanges.map((c, i) => (
                  <tr key={i}>
                    <td title={time.dateTime(c.at, true)}>{time.ago(c.at, now)}</td>
                    <td title={c.actor}>{c.actorName ?? c.actor}</td>
                    <td>{tx(auditActionWords(c.action))}</td>
                    <td>{c.entityName ? `${tx(auditEntityWords(c.entity))}: ${c.entityName}` : tx(auditEntityWords(c.entity))}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </Card>
      );
    }
  }
  return (
    <Card className="gh-stat gh-stat--later" data-testid={`widget-${id}`}>
      <span className="gh-stat__icon">
        <Icon icon="build" size={18} />
      </span>
      <div>
        <div className="gh-stat__label">{tx('Widget “{id}”', { id })}</div>
        <div className="bp6-text-muted">{tx('arrives in a later release')}</div>
      </div>
    </Card>
  );
}

/** Doors by live state (heart-beats over the stored status); the doors that need someone listed, each a link. */
function DoorStatusWidget() {
  const { doors, failed } = useLiveDoors();
  const time = useTime();
  const problems = (doors ?? []).filter((d) => doorStateOf(d.status).problem);
  const now = Date.now();
  return (
    <Card className="gh-dash__chart" data-testid="widget-doorStatus">
      <h5 className="bp6-heading gh-card-title">
        <Icon icon="key-enter" /> <Link to="/configure/doors">{tx('Door status')}</Link>
        <span className="gh-card-title__aside bp6-text-muted">{doors ? `${doors.length} doors, live` : ''}</span>
      </h5>
      {!doors ? (
        failed ? (
          <p className="bp6-text-muted">{tx('The doors could not be loaded.')}</p>
        ) : (
          <Spinner size={20} />
        )
      ) : (
        <>
          <div className="gh-dash__tags">
            {countDoors(doors).map((c) => (
              <Tag key={c.status} large minimal={!doorStateOf(c.status).problem} intent={doorStateOf(c.status).intent} data-testid={`door-count-${c.status}`}>
                {c.count} {getLocale() === 'en' ? doorStateOf(c.status).label.toLowerCase() : tx(doorStateOf(c.status).label)}
              </Tag>
            ))}
          </div>
          {problems.length === 0 ? (
            <p className="bp6-text-muted gh-dash__ok">
              <Icon icon="tick-circle" intent="success" /> {tx('Every door is as it should be.')}
            </p>
          ) : (
            <ul className="gh-dash__problems" data-testid="door-problems">
              {problems.map((d) => (
                <li key={d.id}>
                  <Tag intent={doorStateOf(d.status).intent}>{doorStateOf(d.status).label}</Tag>
                  <Link to="/configure/doors">{d.name}</Link>
                  {d.lastChangedAt && (
                    <span className="bp6-text-muted" title={time.dateTime(d.lastChangedAt, true)}>
                      {time.ago(d.lastChangedAt, Math.max(now, Date.parse(d.lastChangedAt)))}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}
