// Monitor → Floor plan's time slider (issue 50, machines/floorPlanTime.ts): a slider over the chosen period with a
// date-time field beside it (in the user's time zone), Live, play forward at 1×, 10× or 60×, and the period's alarms to
// jump to (live too: opening the list reads the alarms up to now). While a past moment is shown a banner says which, and the plan's door commands are off (FloorPlanScreen).
// The view only reads the machine's selectors and sends it events; the real time it sends along is the browser's.
import { useState } from 'react';
import { Button, ButtonGroup, Callout, HTMLSelect, Slider, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { formatInZone } from '../../../contract';
import { toUtcIso } from '../../../contract/dateInput';
import { FLOOR_PLAN_PLAY_SPEEDS } from '../../../contract/floorPlanHistory';
import { FLOOR_PLAN_WINDOWS, type FloorPlanTimeActor } from '../../../machines/floorPlanTime';
import {
  selectInPast,
  selectMoment,
  selectPastBusy,
  selectPastError,
  selectPeriodAlarms,
  selectPeriodAlarmsBusy,
  selectPeriodAlarmsError,
  selectPlaying,
  selectSpan,
  selectSpeed,
  selectWindowMs,
} from '../../../machines/floorPlanTime.selectors';
import { say, sayEvent, tx } from '../../i18n';
import { useTime } from '../../ui/time';

const WINDOW_LABEL: Record<number, string> = {
  [FLOOR_PLAN_WINDOWS[0]]: 'Last hour',
  [FLOOR_PLAN_WINDOWS[1]]: 'Last 24 hours',
  [FLOOR_PLAN_WINDOWS[2]]: 'Last 7 days',
  [FLOOR_PLAN_WINDOWS[3]]: 'Last 30 days',
};
const INPUT_PATTERN = "yyyy-MM-dd'T'HH:mm";

export function FloorPlanTimeBar({ actor }: { actor: FloorPlanTimeActor }) {
  const time = useTime();
  const inPast = useSelector(actor, selectInPast);
  const moment = useSelector(actor, selectMoment);
  const playing = useSelector(actor, selectPlaying);
  const speed = useSelector(actor, selectSpeed);
  const windowMs = useSelector(actor, selectWindowMs);
  const span = useSelector(actor, selectSpan, (a, b) => a.from === b.from && a.to === b.to);
  const busy = useSelector(actor, selectPastBusy);
  const error = useSelector(actor, selectPastError);
  const alarms = useSelector(actor, selectPeriodAlarms);
  const alarmsBusy = useSelector(actor, selectPeriodAlarmsBusy);
  const alarmsError = useSelector(actor, selectPeriodAlarmsError);
  // visual: where the handle is while it is dragged (sent on release: one read per choice, not one per pixel)
  const [dragged, setDragged] = useState<number | null>(null);
  const now = Date.now();
  const to = inPast ? span.to : now;
  const from = to - windowMs;
  const shown = dragged ?? moment ?? to;
  const pick = (at: number) => actor.send({ type: 'time.pick', at, now: Date.now() });

  return (
    <section className="gh-plan-time" aria-label={tx('Time slider')} data-testid="floor-plan-time">
      <div className="gh-plan-time__row">
        <ButtonGroup>
          <Button
            icon="record"
            intent={inPast ? 'none' : 'success'}
            active={!inPast}
            text={tx('Live')}
            onClick={() => actor.send({ type: 'time.live' })}
            data-testid="floor-plan-live"
          />
          {FLOOR_PLAN_PLAY_SPEEDS.map((s) => (
            <Button
              key={s}
              icon={s === 1 ? 'play' : undefined}
              text={`${s}×`}
              active={playing && speed === s}
              disabled={!inPast}
              aria-label={tx('Play forward at {n}×', { n: s })}
              onClick={() => actor.send({ type: 'time.play', speed: s, now: Date.now() })}
              data-testid={`floor-plan-play-${s}`}
            />
          ))}
          <Button icon="pause" disabled={!playing} aria-label={tx('Pause')} onClick={() => actor.send({ type: 'time.pause' })} data-testid="floor-plan-pause" />
        </ButtonGroup>
        <HTMLSelect
          aria-label={tx('Period')}
          value={windowMs}
          onChange={(e) => actor.send({ type: 'time.window', ms: Number(e.currentTarget.value), now: Date.now() })}
          options={FLOOR_PLAN_WINDOWS.map((w) => ({ value: w, label: tx(WINDOW_LABEL[w]) }))}
          data-testid="floor-plan-period"
        />
        <label className="gh-plan-time__field">
          <span className="bp6-text-muted">{tx('Moment ({zone})', { zone: time.zoneName(shown) })}</span>
          <input
            type="datetime-local"
            className="bp6-input"
            value={formatInZone(shown, time.zone, INPUT_PATTERN)}
            min={formatInZone(now - FLOOR_PLAN_WINDOWS[3], time.zone, INPUT_PATTERN)}
            max={formatInZone(now, time.zone, INPUT_PATTERN)}
            onChange={(e) => {
              const [d, t] = e.currentTarget.value.split('T');
              const iso = d && t ? toUtcIso(d, t, time.zone) : null;
              if (iso) pick(Date.parse(iso));
            }}
            data-testid="floor-plan-moment"
          />
        </label>
      </div>
      <div className="gh-plan-time__slider">
        <Slider
          min={from}
          max={to}
          stepSize={60_000}
          value={Math.min(to, Math.max(from, shown))}
          labelRenderer={false}
          onChange={setDragged}
          onRelease={(v) => {
            setDragged(null);
            pick(v);
          }}
          handleHtmlProps={{ 'aria-label': tx('Moment shown') }}
        />
        <div className="gh-plan-time__ends bp6-text-muted bp6-text-small">
          <span>{time.dateTime(from)}</span>
          <span>{tx('Now')}</span>
        </div>
      </div>
      {inPast && moment !== null && (
        <Callout intent="warning" icon="history" className="gh-plan-time__banner" data-testid="floor-plan-past">
          <strong>{tx('The site as it stood at {at}', { at: time.dateTime(moment, true) })}</strong> {busy && <Tag minimal>{tx('Rebuilding…')}</Tag>}{' '}
          {tx('Door commands are off while you look at the past.')}
          {error && <div className="bp6-text-muted">{say(error)}</div>}
        </Callout>
      )}
      <details
        className="gh-plan-time__alarms"
        data-testid="floor-plan-jump"
        // live, the list is read each time it is opened (the period up to now); in the past it follows the period
        onToggle={(e) => {
          if (e.currentTarget.open && !inPast) actor.send({ type: 'alarms.read', now: Date.now() });
        }}
      >
        <summary>{alarms ? tx('Jump to an alarm ({n})', { n: alarms.length }) : tx('Jump to an alarm')}</summary>
        {alarmsBusy && !alarms && <p className="bp6-text-muted">{tx('Loading…')}</p>}
        {alarmsError && <p className="bp6-text-muted">{say(alarmsError)}</p>}
        {alarms && alarms.length === 0 && <p className="bp6-text-muted">{tx('No alarms in this period.')}</p>}
        {alarms && alarms.length > 0 && (
          <ul>
            {alarms.map((a) => (
              <li key={a.eventId}>
                <Button
                  variant="minimal"
                  size="small"
                  icon="notifications"
                  intent={a.priority <= 20 ? 'danger' : 'warning'}
                  text={`${time.dateTime(a.raisedAt)} · ${sayEvent(a)}`}
                  onClick={() => actor.send({ type: 'alarm.jump', at: Date.parse(a.raisedAt), now: Date.now() })}
                  data-testid="floor-plan-jump-alarm"
                />
              </li>
            ))}
          </ul>
        )}
      </details>
    </section>
  );
}
