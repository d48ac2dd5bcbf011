// The threat level on the doors screen (issue 12) for holders of door control (0.4.5.4): a security operator may
// not open /configure/threat-levels (its codes configure the levels, 0.4.4.x), yet puts a level in force in an
// incident. The panel says which level holds where (a site's level: that site, and everywhere else none) and sets one
// for a site whose doors they control, or for the whole client only when they control all of it (the server's
// choices endpoint says which), through the same command as the threat levels screen. Asked first; the answer is
// toasted, a refusal stays in a callout; another console's change arrives as the resource's change notice.
import { useState } from 'react';
import { Button, Callout, Card, FormGroup, HTMLSelect, Icon, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { threatLevelsResource } from '../../../contract';
import {
  selectThreatCurrent,
  selectThreatDivisions,
  selectThreatError,
  selectThreatLevels,
  selectThreatMayChange,
  selectThreatRunning,
  selectThreatWholeClient,
} from '../../../machines/threatLevel';
import { useChangeNotices } from '../../hooks/useChangeNotices';
import { useViewActor } from '../../hooks/useViewActor';
import { say, tx } from '../../i18n';
import { useTime } from '../../ui/time';
import { ThreatConfirm, ThreatMinutes, intentOf, minutesAreBad, modeText, useThreatAnswers } from './threatParts';
import './threatPanel.css';

export function DoorsThreatPanel() {
  const time = useTime();
  const threat = useViewActor('threatChoicesLogic', { input: { mayControl: true } });
  const now = useSelector(threat, selectThreatCurrent);
  const levels = useSelector(threat, selectThreatLevels);
  const sites = useSelector(threat, selectThreatDivisions);
  const wholeClient = useSelector(threat, selectThreatWholeClient);
  const mayChange = useSelector(threat, selectThreatMayChange);
  const running = useSelector(threat, selectThreatRunning);
  const error = useSelector(threat, selectThreatError);
  const [open, setOpen] = useState(false); // visual: the form to set a level is shown
  const [levelId, setLevelId] = useState(''); // visual: the level chosen
  const [where, setWhere] = useState(''); // visual: the site chosen ('all': the whole client); empty: the first offered
  const [minutes, setMinutes] = useState(''); // visual: typed minutes (empty: until lowered)
  const [asking, setAsking] = useState<'set' | 'lower' | null>(null); // visual: which question is open
  // another console's change (the resource's change notice), or the screen shown again: the panel reads again
  useChangeNotices({ resource: threatLevelsResource.name }, threat, { type: 'threat.changed' });
  // each answer in a toast, and the form that asked closes
  useThreatAnswers(threat, () => setOpen(false));

  const place = where || (wholeClient ? 'all' : String(sites[0]?.id ?? ''));
  const placeName = place === 'all' ? tx('the whole client') : (sites.find((d) => String(d.id) === place)?.name ?? '');
  const chosen = levels.find((l) => String(l.id) === levelId) ?? null;
  const typed = minutes.trim();
  const minutesBad = minutesAreBad(typed);

  if (!now) return null; // nothing read yet (a failed read is toasted by the api client)
  return (
    <Card compact className="gh-doors-threat gh-mb" data-testid="doors-threat">
      {error && (
        <Callout intent="danger" icon="error" className="gh-mb" data-testid="doors-threat-error">
          {say(error)}
        </Callout>
      )}
      <div className="gh-doors-threat__row">
        <div className="gh-doors-threat__now" data-testid="doors-threat-current">
          <Icon icon="shield" intent={now.level ? intentOf(now.level.mode) : 'success'} className="gh-mr" />
          <strong className="gh-mr">{tx('Threat level')}</strong>
          {now.level ? (
            <>
              <Tag intent={intentOf(now.level.mode)} className="gh-mr" data-testid="doors-threat-level">
                {now.level.name}
              </Tag>
              <span>
                {now.divisionName ? `${now.divisionName}: ` : `${tx('the whole client')}: `}
                {modeText(now.level.mode)}
              </span>
              {now.divisionName && (
                <div className="bp6-text-muted" data-testid="doors-threat-elsewhere">
                  {tx('Everywhere else: none')}
                </div>
              )}
              <div className="bp6-text-muted">
                {tx('Set by {who} at {time}', { who: now.setByName ?? now.setBy ?? '', time: time.dateTime(now.setAt, true) })}
                {' · '}
                {now.until ? tx('reverts by itself at {time}', { time: time.dateTime(now.until, true) }) : tx('until lowered')}
              </div>
              {!mayChange && (
                <div className="bp6-text-muted" data-testid="doors-threat-not-yours">
                  {tx('It covers doors you do not control: only someone who controls them all can change it.')}
                </div>
              )}
            </>
          ) : (
            <span data-testid="doors-threat-none">{tx('None in force: the doors work as configured.')}</span>
          )}
        </div>
        {mayChange && (
          <div className="gh-doors-threat__actions">
            {now.level && (
              <Button
                icon="arrow-down"
                intent="success"
                variant="outlined"
                loading={running === 'lower'}
                disabled={running !== null}
                onClick={() => setAsking('lower')}
                data-testid="doors-threat-lower"
              >
                {tx('Lower to none')}
              </Button>
            )}
            <Button
              icon={open ? 'chevron-up' : 'shield'}
              variant="outlined"
              disabled={running !== null}
              onClick={() => setOpen(!open)}
              aria-expanded={open}
              data-testid="doors-threat-open"
            >
              {now.level ? tx('Change level') : tx('Set a level')}
            </Button>
          </div>
        )}
      </div>
      {open &&
        mayChange &&
        (levels.length === 0 ? (
          <Callout className="gh-mt" icon="info-sign" data-testid="doors-threat-no-levels">
            {tx('This client has no threat levels yet: an administrator adds them under Threat levels.')}
          </Callout>
        ) : (
          <div className="gh-threat-set" data-testid="doors-threat-form">
            <FormGroup label={tx('Threat level')} labelFor="doors-threat-level">
              <HTMLSelect id="doors-threat-level" value={levelId} onChange={(e) => setLevelId(e.currentTarget.value)} data-testid="doors-threat-choose">
                <option value="">{tx('Choose a level')}</option>
                {levels.map((l) => (
                  <option key={l.id} value={l.id}>{`${l.rank} · ${l.name}`}</option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <FormGroup label={tx('Where')} labelFor="doors-threat-where">
              <HTMLSelect id="doors-threat-where" value={place} onChange={(e) => setWhere(e.currentTarget.value)} data-testid="doors-threat-where">
                {wholeClient && <option value="all">{tx('the whole client')}</option>}
                {sites.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <ThreatMinutes id="doors-threat-minutes" value={minutes} onChange={setMinutes} />
            <Button
              icon="shield"
              intent={intentOf(chosen?.mode)}
              disabled={!chosen || !place || minutesBad || running !== null}
              loading={running === 'set'}
              onClick={() => setAsking('set')}
              data-testid="doors-threat-set"
            >
              {tx('Set level')}
            </Button>
          </div>
        ))}
      <ThreatConfirm
        asking={asking}
        chosen={chosen}
        where={placeName}
        testId="doors-threat-confirm"
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          threat.send(
            asking === 'set'
              ? { type: 'threat.set', levelId: Number(levelId), divisionId: place === 'all' ? null : Number(place), minutes: typed ? Number(typed) : null }
              : { type: 'threat.lower' },
          );
          setAsking(null);
        }}
      />
    </Card>
  );
}
