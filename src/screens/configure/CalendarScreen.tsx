// /configure/calendar [0.4.1.0] (issue 12): the client's special dates on a month — holidays, half days and
// closures, the yearly ones in every year — so an operator sees at a glance which days the schedules treat
// differently. Weeks start on Monday. A day's special date opens its edit form [0.4.13.2]; an ordinary day offers
// to add one there [0.4.13.1] (the add form opens with the date chosen). Below the month, its special dates as a
// list (what a phone shows first). Today is marked in the user's time zone.
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, ButtonGroup, Callout, H4, NonIdealState, Spinner, Tag, type Intent } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { addDays, addMonths, endOfMonth, format, startOfMonth, startOfWeek } from 'date-fns';
import { PRIV, SPECIAL_DAY_KINDS, hasPrivilege } from '../../../contract';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import type { SpecialDateRow } from '../../hooks/answers';
import { useReading } from '../../hooks/useReading';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { routeDescription, routeTitle, tCat, tx, useLocale } from '../../i18n';
import { catKey, resourceBase } from '../../i18n/catalogue';
import { firstDayOfWeek } from '../../i18n/week';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import './calendar.css';

type SpecialDate = SpecialDateRow;
const KIND_INTENT: Record<string, Intent> = { holiday: 'danger', 'half-day': 'warning', closure: 'none' };
const kindLabel = (kind: string) =>
  tCat(catKey.choice(resourceBase('specialDates'), 'kind', kind), SPECIAL_DAY_KINDS.find((k) => k.value === kind)?.label ?? kind);

/** The special dates that fall on `ymd` (a yearly one on its month and day in any year). */
export function onDay(dates: readonly SpecialDate[], ymd: string): SpecialDate[] {
  return dates.filter((d) => d.date === ymd || (d.yearly && d.date.slice(5) === ymd.slice(5)));
}

export function CalendarScreen() {
  const locale = useLocale();
  const { route } = useRouteInfo();
  const navigate = useNavigate();
  const time = useTime();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const canAdd = hasPrivilege(held, [PRIV.specialDates.add]);
  const canEdit = hasPrivilege(held, [PRIV.specialDates.edit]);
  const today = time.today(Date.now());
  const [month, setMonth] = useState(() => startOfMonth(new Date(`${today}T00:00:00`))); // visual: the month shown
  const dates = useReading<{ items: SpecialDate[] }>('specialDatesReading');
  const all = useMemo(() => dates.output?.items ?? [], [dates.output]);
  const days = useMemo(() => {
    // weeks start where the reader's region starts them (Sunday in the US, Monday in Britain and China)
    const first = startOfWeek(startOfMonth(month), { weekStartsOn: firstDayOfWeek(locale) });
    const last = endOfMonth(month);
    const out: Date[] = [];
    for (let d = first; d <= last || out.length % 7 !== 0; d = addDays(d, 1)) out.push(d);
    return out;
  }, [month, locale]);
  const ym = format(month, 'yyyy-MM');
  const inMonth = useMemo(
    () => days.filter((d) => format(d, 'yyyy-MM') === ym).flatMap((d) => onDay(all, format(d, 'yyyy-MM-dd')).map((s) => ({ day: format(d, 'yyyy-MM-dd'), s }))),
    [days, all, ym],
  );
  const weekdays = useMemo(
    () => days.slice(0, 7).map((d) => new Intl.DateTimeFormat(locale === 'zh-CN' ? 'zh-CN' : 'en-GB', { weekday: 'short' }).format(d)),
    [days, locale],
  );
  const monthTitle = new Intl.DateTimeFormat(locale === 'zh-CN' ? 'zh-CN' : 'en-GB', { month: 'long', year: 'numeric' }).format(month);

  return (
    <div className="gh-page" data-testid="calendar">
      <PageHeader
        title={routeTitle(route)}
        icon={route.icon}
        description={routeDescription(route)}
        actions={
          <>
            <ButtonGroup>
              <Button icon="chevron-left" aria-label={tx('Previous month')} onClick={() => setMonth((m) => addMonths(m, -1))} data-testid="calendar-prev" />
              <Button onClick={() => setMonth(startOfMonth(new Date(`${today}T00:00:00`)))}>{tx('Today')}</Button>
              <Button icon="chevron-right" aria-label={tx('Next month')} onClick={() => setMonth((m) => addMonths(m, 1))} data-testid="calendar-next" />
            </ButtonGroup>
            {canAdd && (
              <Button intent="primary" icon="plus" onClick={() => navigate('/configure/special-date/add')}>
                {tx('Add {what}', { what: tx('Special date').toLowerCase() })}
              </Button>
            )}
          </>
        }
      />
      <H4 data-testid="calendar-month">{monthTitle}</H4>
      {dates.failed && (
        <Callout intent="danger" icon="error">
          {tx('The special dates could not be loaded')}
        </Callout>
      )}
      {!dates.output && !dates.failed && <NonIdealState icon={<Spinner />} title={tx('Loading…')} />}
      {dates.output && (
        <>
          {/* a table of the month: a row of weekday headers, then a row per week (rows are display: contents, so the
              days still lay out on the calendar's grid); a table, not a grid, as the days take no arrow keys */}
          <div className="gh-calendar" role="table" aria-label={monthTitle}>
            <div role="row" className="gh-contents">
              {weekdays.map((w) => (
                <div key={w} className="gh-calendar__weekday" role="columnheader">
                  {w}
                </div>
              ))}
            </div>
            {Array.from({ length: Math.ceil(days.length / 7) }, (_, i) => days.slice(i * 7, i * 7 + 7)).map((week) => (
              <div role="row" className="gh-contents" key={format(week[0], 'yyyy-MM-dd')}>
                {week.map((d) => {
                  const ymd = format(d, 'yyyy-MM-dd');
                  const special = onDay(all, ymd);
                  const out = format(d, 'yyyy-MM') !== ym;
                  return (
                    <div
                      key={ymd}
                      role="cell"
                      data-testid="calendar-day"
                      data-date={ymd}
                      aria-label={time.date(ymd)}
                      className={`gh-calendar__day${out ? ' gh-calendar__day--out' : ''}${ymd === today ? ' gh-calendar__day--today' : ''}${special.length ? ` gh-calendar__day--${special[0].kind}` : ''}`}
                    >
                      <div className="gh-calendar__num">
                        {d.getDate()}
                        {canAdd && !special.length && !out && (
                          <Button
                            size="small"
                            variant="minimal"
                            icon="plus"
                            className="gh-calendar__add"
                            aria-label={tx('Add a special date on {date}', { date: time.date(ymd) })}
                            onClick={() => navigate(`/configure/special-date/add?date=${ymd}`)}
                            data-testid="calendar-add"
                          />
                        )}
                      </div>
                      {special.map((s) => (
                        <div key={s.id} className="gh-calendar__entry" data-testid="calendar-entry">
                          <Tag minimal intent={KIND_INTENT[s.kind] ?? 'none'} icon={s.yearly ? 'repeat' : undefined} title={kindLabel(s.kind)}>
                            {canEdit ? <Link to={`/configure/special-date/edit/${s.id}`}>{s.name}</Link> : s.name}
                          </Tag>
                        </div>
                      ))}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
          <H4 className="gh-calendar__list-title">{tx('Special dates this month')}</H4>
          {inMonth.length === 0 ? (
            <p className="bp6-text-muted" data-testid="calendar-none">
              {tx('No special dates this month: every schedule follows its weekly windows.')}
            </p>
          ) : (
            <ul className="gh-calendar__list" data-testid="calendar-list">
              {inMonth.map(({ day, s }) => (
                <li key={`${day}-${s.id}`}>
                  <strong>{time.date(day)}</strong> · {canEdit ? <Link to={`/configure/special-date/edit/${s.id}`}>{s.name}</Link> : s.name} ·{' '}
                  <Tag minimal intent={KIND_INTENT[s.kind] ?? 'none'}>
                    {kindLabel(s.kind)}
                  </Tag>
                  {s.yearly && <span className="bp6-text-muted"> · {tx('every year')}</span>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
