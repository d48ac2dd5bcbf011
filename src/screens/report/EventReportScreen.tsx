// /report/event: the event history — the place the live /monitor/events screen jumps to. Filters (codes,
// alarms only, time range, point) live in the URL, so a jump from the live screen, a bookmark or a reload
// shows the same rows; the list pages and sorts on the server.
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Callout, Card, FormGroup, InputGroup, Switch } from '@blueprintjs/core';
import { eventHistory, ResourceList } from '../../resources';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import { useLocale, useT, tx } from '../../i18n';
import { DateTimeField, dateTimeProblem, isMoment, sayDateTimeProblem } from '../../ui/DateTimeField';
import { ALARM_FIGURE_PARAMS } from '../../../contract/alarmHandling';
import './eventReport.css';

/** The URL's filters the server understands (the list's own search box adds q). */
export const HISTORY_FILTERS = ['eventCode', 'alert', 'from', 'to', 'eventPointId', 'q', ...ALARM_FIGURE_PARAMS] as const;

export function EventReportScreen() {
  const [params, setParams] = useSearchParams();
  // the time range is typed in the user's zone (issue 10), not the browser's
  const { zone, zoneName } = useTime();
  const t = useT();
  const locale = useLocale(); // the date-time fields follow the console's language
  const filters = useMemo(() => {
    const f: Record<string, string> = {};
    for (const k of HISTORY_FILTERS) {
      const v = params.get(k);
      if (v) f[k] = v;
    }
    return f;
  }, [params]);
  // visual: the filters as typed (applied to the list actor on Search)
  const [codes, setCodes] = useState(filters.eventCode ?? '');
  const [alarmsOnly, setAlarmsOnly] = useState(filters.alert === 'true');
  // visual: the time range, moments (ISO 8601) typed in the user's zone in the one date-time field, or the text typed
  const [from, setFrom] = useState(filters.from ?? '');
  const [to, setTo] = useState(filters.to ?? '');
  const codesValid = codes.trim() === '' || /^\s*\d+(\s*,\s*\d+)*\s*$/.test(codes);
  const [left, setLeft] = useState({ from: false, to: false }); // visual: a field's problem is said once it is left
  const fromProblem = dateTimeProblem(from, locale, zone);
  const toProblem = dateTimeProblem(to, locale, zone);
  const rangeProblem = !fromProblem && !toProblem && isMoment(from) && isMoment(to) && Date.parse(to) < Date.parse(from) ? 'must not be before From' : null;
  const valid = codesValid && !fromProblem && !toProblem && !rangeProblem;
  const fromSaid = left.from ? fromProblem : null;
  const toSaid = left.to ? (toProblem ?? rangeProblem) : null;
  // a field's own problem in the words every form uses (sayDateTimeProblem); the range's below To
  const said = (p: string | null, label: string) =>
    p === 'must not be before From' ? tx('Must not be before From') : p ? sayDateTimeProblem(p, label, locale) : null;

  const apply = () => {
    const next = new URLSearchParams();
    if (codes.trim()) next.set('eventCode', codes.replace(/\s+/g, ''));
    if (alarmsOnly) next.set('alert', 'true');
    if (isMoment(from)) next.set('from', from);
    if (isMoment(to)) next.set('to', to);
    if (filters.eventPointId) next.set('eventPointId', filters.eventPointId);
    if (filters.q) next.set('q', filters.q);
    for (const k of ALARM_FIGURE_PARAMS) if (filters[k]) next.set(k, filters[k]); // issue 31: the alarms behind a figure
    setParams(next);
  };
  const clear = () => {
    setCodes('');
    setAlarmsOnly(false);
    setFrom('');
    setTo('');
    setLeft({ from: false, to: false });
    setParams(new URLSearchParams());
  };

  return (
    <div className="gh-page" data-testid="event-report">
      <PageHeader
        title={tx('Event report')}
        icon="list"
        description={tx('Every stored event of this client, newest first: card swipes, door and input states, alarms and their handling.')}
      />
      <Card compact className="gh-filterbar">
        <form
          className="gh-filterbar__row"
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) apply();
          }}
          aria-label={tx('Event filters')}
        >
          <FormGroup
            label={tx('Event codes')}
            labelFor="history-codes"
            intent={codesValid ? 'none' : 'danger'}
            helperText={codesValid ? tx('e.g. 4002,4003') : tx('Whole numbers separated by commas')}
          >
            <InputGroup id="history-codes" value={codes} onChange={(e) => setCodes(e.currentTarget.value)} intent={codesValid ? 'none' : 'danger'} />
          </FormGroup>
          <FormGroup
            label={t('fromColumn', { zone: zoneName() })}
            labelFor="history-from"
            intent={fromSaid ? 'danger' : 'none'}
            helperText={said(fromSaid, t('fromColumn', { zone: zoneName() })) ?? undefined}
          >
            <DateTimeField
              id="history-from"
              value={from}
              onChange={setFrom}
              onBlur={() => setLeft((l) => ({ ...l, from: true }))}
              intent={fromSaid ? 'danger' : 'none'}
              aria-invalid={!!fromSaid}
            />
          </FormGroup>
          <FormGroup
            label={t('toColumn', { zone: zoneName() })}
            labelFor="history-to"
            intent={toSaid ? 'danger' : 'none'}
            helperText={said(toSaid, t('toColumn', { zone: zoneName() })) ?? undefined}
          >
            <DateTimeField
              id="history-to"
              value={to}
              onChange={setTo}
              onBlur={() => setLeft((l) => ({ ...l, to: true }))}
              intent={toSaid ? 'danger' : 'none'}
              aria-invalid={!!toSaid}
            />
          </FormGroup>
          <Switch label={tx('Alarms only')} checked={alarmsOnly} onChange={(e) => setAlarmsOnly(e.currentTarget.checked)} className="gh-filterbar__switch" />
          <Button type="submit" intent="primary" icon="filter" disabled={!valid}>
            {tx('Apply')}
          </Button>
          <Button icon="cross" variant="minimal" onClick={clear}>
            {tx('Clear')}
          </Button>
        </form>
      </Card>
      {ALARM_FIGURE_PARAMS.some((k) => filters[k]) && (
        <Callout compact intent="primary" icon="stopwatch" data-testid="alarm-figure-filter" style={{ marginBottom: 8 }}>
          {tx('Showing the alarms behind a figure of the alarm handling report.')}{' '}
          <Button size="small" variant="minimal" icon="cross" onClick={clear}>
            {tx('Show all events')}
          </Button>
        </Callout>
      )}
      {/* the filters are the list's starting filters: a change starts a fresh list (page 1) */}
      <ResourceList key={JSON.stringify(filters)} resource={eventHistory} filters={filters} />
    </div>
  );
}
