// Pages of widgets per user (user.dashboardPages), fed by the dashboard endpoint through a resource actor.
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Card, HTMLTable, Icon, NonIdealState, Spinner, Tab, Tabs, Tag, type IconName } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { formatNumber, hasPrivilege, PRIV, type DashboardPage, type DashboardSummary } from '../../../contract';
import { selectServerAlarmCount } from '../../../machines/alarms.selectors';
import { selectHeldPrivileges, selectUser } from '../../../machines/session.selectors';
import { dashboard } from '../../api/endpoints';
import { countDoors, doorStateOf } from '../configure/doorStatus';
import { useLiveDoors } from '../configure/useLiveDoors';
import { useSystemActor } from '../../app/useSystemActor';
import { useT } from '../../i18n';
import { useTime } from '../../ui/time';
import { PageHeader } from '../../ui/PageHeader';
import { useTask } from '../../ui/useTask';

type CountKey = 'identities' | 'activeCredentials' | 'divisions' | 'doors' | 'controllers' | 'openAlarms';
const COUNTS: Record<CountKey, { title: string; icon: string; to?: string; intent?: string }> = {
  identities: { title: 'Identities', icon: 'people', to: '/manage/identities' },
  activeCredentials: { title: 'Active credentials', icon: 'credit-card' },
  divisions: { title: 'Divisions', icon: 'diagram-tree', to: '/configure/division' },
  doors: { title: 'Doors', icon: 'key-enter', to: '/configure/doors' },
  controllers: { title: 'Controllers', icon: 'desktop', to: '/hardware/controllers' },
  openAlarms: { title: 'Open alarms', icon: 'warning-sign', to: '/monitor/alarms', intent: 'danger' },
};
const ALL_WIDGETS = [...Object.keys(COUNTS), 'doorStatus', 'recentChanges'];
export const DEFAULT_PAGES: DashboardPage[] = [{ pageNum: 1, widgets: ALL_WIDGETS.map((id) => ({ id })) }];

export function DashboardScreen() {
  const session = useSystemActor('session');
  const user = useSelector(session, selectUser);
  const data = useTask(() => dashboard(), [user?.clientId]);
  const pages = useMemo(() => (user?.dashboardPages.length ? [...user.dashboardPages].sort((a, b) => a.pageNum - b.pageNum) : DEFAULT_PAGES), [user]);
  const [page, setPage] = useState(pages[0]?.pageNum ?? 1); // visual: which page is shown
  const current = pages.find((p) => p.pageNum === page) ?? pages[0];

  return (
    <div className="gh-page" data-testid="dashboard">
      <PageHeader title="Dashboard" icon="dashboard" description={user ? `Welcome, ${user.name}.` : undefined}
        actions={<Button icon="refresh" variant="outlined" loading={data.status === 'active'} onClick={data.reload} aria-label="Refresh the dashboard">Refresh</Button>} />
      {pages.length > 1 && (
        <Tabs id="dashboard-pages" selectedTabId={page} onChange={(id) => setPage(Number(id))} className="gh-dash__tabs">
          {pages.map((p) => <Tab key={p.pageNum} id={p.pageNum} title={`Page ${p.pageNum}`} />)}
        </Tabs>
      )}
      {data.status === 'error' && <Callout intent="danger" icon="error">The dashboard data could not be loaded.</Callout>}
      {data.status === 'active' && !data.output && <NonIdealState icon={<Spinner />} title="Loading the dashboard…" />}
      {data.output && current && (
        <div className="gh-dash">
          {current.widgets.map((w) => <Widget key={w.id} id={w.id} data={data.output!} />)}
        </div>
      )}
    </div>
  );
}

function Widget({ id, data }: { id: string; data: DashboardSummary }) {
  const t = useT();
  const time = useTime();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  // the open-alarm count is live (the alarms actor hears /alarmcount) and only for those who may see alarms
  const liveAlarms = useSelector(useSystemActor('alarms'), selectServerAlarmCount);
  if (id === 'doorStatus') return hasPrivilege(held, [PRIV.doors.view, PRIV.doors.control]) ? <DoorStatusWidget /> : null;
  if (id === 'openAlarms' && !hasPrivilege(held, [PRIV.alarms.view])) return null;
  if (id in COUNTS) {
    const c = COUNTS[id as CountKey];
    const value = id === 'openAlarms' ? liveAlarms : data[id as CountKey];
    const body = (
      <Card className={`gh-stat${c.intent === 'danger' && value > 0 ? ' gh-stat--alert' : ''}`} interactive={!!c.to} data-testid={`widget-${id}`}>
        <span className="gh-stat__icon"><Icon icon={c.icon as IconName} size={18} /></span>
        <div>
          <div className="gh-stat__value" title={String(value)}>{formatNumber(value)}</div>
          <div className="gh-stat__label">{c.title}</div>
        </div>
      </Card>
    );
    return c.to ? <Link to={c.to} className="gh-stat__link">{body}</Link> : body;
  }
  if (id === 'recentChanges') {
    const now = Date.now();
    return (
      <Card className="gh-dash__wide" data-testid="widget-recentChanges">
        <h5 className="bp6-heading gh-card-title"><Icon icon="history" /> {t('recentChanges')}</h5>
        {data.recentChanges.length === 0 ? <p className="bp6-text-muted">No changes yet.</p> : (
          <HTMLTable compact striped className="gh-dash__table">
            <thead><tr><th>When</th><th>Who</th><th>What</th><th>Record</th></tr></thead>
            <tbody>
              {data.recentChanges.map((c, i) => (
                <tr key={i}><td title={time.dateTime(c.at, true)}>{time.ago(c.at, now)}</td><td>{c.actor}</td><td>{c.action}</td><td>{c.entity}</td></tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </Card>
    );
  }
  return (
    <Card className="gh-stat gh-stat--later" data-testid={`widget-${id}`}>
      <span className="gh-stat__icon"><Icon icon="build" size={18} /></span>
      <div><div className="gh-stat__label">Widget “{id}”</div><div className="bp6-text-muted">arrives in a later release</div></div>
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
    <Card className="gh-dash__wide" data-testid="widget-doorStatus">
      <h5 className="bp6-heading gh-card-title">
        <Icon icon="key-enter" /> <Link to="/configure/doors">Door status</Link>
        <span className="gh-card-title__aside bp6-text-muted">{doors ? `${doors.length} doors, live` : ''}</span>
      </h5>
      {!doors ? (failed ? <p className="bp6-text-muted">The doors could not be loaded.</p> : <Spinner size={20} />) : (
        <>
          <div className="gh-dash__tags">
            {countDoors(doors).map((c) => (
              <Tag key={c.status} large minimal={!doorStateOf(c.status).problem} intent={doorStateOf(c.status).intent} data-testid={`door-count-${c.status}`}>
                {c.count} {doorStateOf(c.status).label.toLowerCase()}
              </Tag>
            ))}
          </div>
          {problems.length === 0 ? <p className="bp6-text-muted gh-dash__ok"><Icon icon="tick-circle" intent="success" /> Every door is as it should be.</p> : (
            <ul className="gh-dash__problems" data-testid="door-problems">
              {problems.map((d) => (
                <li key={d.id}>
                  <Tag intent={doorStateOf(d.status).intent}>{doorStateOf(d.status).label}</Tag>
                  <Link to="/configure/doors">{d.name}</Link>
                  {d.lastChangedAt && <span className="bp6-text-muted" title={time.dateTime(d.lastChangedAt, true)}>{time.ago(d.lastChangedAt, Math.max(now, Date.parse(d.lastChangedAt)))}</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}
