// The dashboard's widgets under its counts (issue 10): the charts (./DashboardCharts.tsx, visx), today's visitors and
// attendance, the doors' live state and the recent changes. Issue 48: the dashboard loads this file lazily, once its
// counts are drawn and the opening screen has what it reads (DashboardScreen.tsx LaterWidgets), so none of it, nor the
// charts' library, is among what a cold dashboard waits for.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Card, HTMLTable, Icon, Spinner, type IconName } from '@blueprintjs/core';
import { ShortTag } from '../../ui/ShortTag';
import { useSelector } from '@xstate/react';
import { auditActionWords, auditEntityWords, formatNumber, hasPrivilege, PRIV, type DashboardSummary } from '../../../contract';
import { selectAlarmsKnown, selectOpenByPriority } from '../../../machines/alarms.selectors';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { countDoors, doorStateOf } from '../configure/doorStatus';
import { useLiveDoors } from '../configure/useLiveDoors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { getLocale, useT, tx } from '../../i18n';
import { useTime } from '../../ui/time';
import { HourChart, PriorityChart, VisitorsChart } from './DashboardCharts';

/** The widgets of the page shown, but the counts, in the page's order. */
export function DashboardWidgets({ ids, data }: { ids: string[]; data: DashboardSummary }) {
  return (
    <>
      {ids.map((id) => (
        <Widget key={id} id={id} data={data} />
      ))}
    </>
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
  return (
    <Card className="gh-dash__chart" data-testid={`widget-${id}`}>
      <h5 className="bp6-heading gh-card-title">
        <Icon icon={icon} />{' '}
        <Link to={to} data-testid={`widget-${id}-link`}>
          {title}
        </Link>
        {aside && <span className="gh-card-title__aside bp6-text-muted">{aside}</span>}
      </h5>
      {children}
    </Card>
  );
}

function Widget({ id, data }: { id: string; data: DashboardSummary }) {
  const t = useT();
  const time = useTime();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  // open alarms by priority follow the alarms actor (live); the server's answer says whether to show them at all
  const byPriority = useSelector(useSystemActor('alarms'), selectOpenByPriority);
  const alarmsKnown = useSelector(useSystemActor('alarms'), selectAlarmsKnown);
  switch (id) {
    case 'doorStatus':
      return data.doorsByState ? <DoorStatusWidget /> : null;
    case 'alarmsByPriority': {
      if (!data.alarmsByPriority) return null;
      const total = byPriority.reduce((n, p) => n + p.count, 0);
      // until the live feed has read the open alarms (its connection comes after the opening screen), no count and never
      // "No open alarms": an operator must not be told none are open before it is known
      if (!alarmsKnown)
        return (
          <ChartCard id={id} icon="warning-sign" title={tx('Open alarms by priority')} to="/monitor/alarms">
            <p className="bp6-text-muted" aria-busy="true" data-testid="alarms-by-priority-loading">
              {tx('Loading open alarms…')}
            </p>
          </ChartCard>
        );
      return (
        <ChartCard id={id} icon="warning-sign" title={tx('Open alarms by priority')} to="/monitor/alarms" aside={tx('{n} open', { n: total })}>
          {total === 0 ? (
            <p className="bp6-text-muted gh-dash__ok">
              <Icon icon="tick-circle" intent="success" /> {tx('No open alarms.')}
            </p>
          ) : (
            <PriorityChart data={byPriority} name={tx('Open alarms by priority')} />
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
          <HourChart data={data.alarmsPerHour} colour="#cd4246" what={tx('Alarms')} name={tx('Alarms per hour')} />
        </ChartCard>
      );
    }
    case 'eventsPerHour': {
      if (!data.eventsPerHour) return null;
      const total = data.eventsPerHour.reduce((n, h) => n + h.count, 0);
      const to = hasPrivilege(held, [PRIV.events.view]) ? '/monitor/events' : '/report/event';
      return (
        <ChartCard id={id} icon="pulse" title={tx('Events per hour')} to={to} aside={tx('{n} in 24 h', { n: formatNumber(total) })}>
          <HourChart data={data.eventsPerHour} colour="#2d72d2" what={tx('Events')} name={tx('Events per hour')} />
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
            <VisitorsChart expected={v.expected} onSite={v.onSite} left={v.left} name={tx('Visitors today')} />
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
              <ShortTag
                key={c.status}
                large
                minimal={!doorStateOf(c.status).problem}
                intent={doorStateOf(c.status).intent}
                data-testid={`door-count-${c.status}`}
              >
                {c.count} {getLocale() === 'en' ? doorStateOf(c.status).label.toLowerCase() : tx(doorStateOf(c.status).label)}
              </ShortTag>
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
                  <ShortTag intent={doorStateOf(d.status).intent}>{doorStateOf(d.status).label}</ShortTag>
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
