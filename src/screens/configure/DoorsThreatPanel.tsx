// The threat level on the doors screen (issue 12) for holders of door control (0.4.5.4): a security operator may
// not open /configure/threat-levels (its codes configure the levels, 0.4.4.x), yet puts a level in force in an
// incident. The panel says which level holds where (a site's level: that site, and everywhere else none) and sets one
// for a site whose doors they control, or for the whole client only when they control all of it (the server's
// choices endpoint says which), through the same command as the threat levels screen. Asked first; the answer is
// toasted, a refusal stays in a callout; another console's change arrives as the resource's change notice.
import { useEffect, useState } from 'react';
import { Alert, Button, Callout, Card, FormGroup, HTMLSelect, Icon, InputGroup, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { threatLevelsResource } from '../../../contract';
import {
  selectThreatCurrent, selectThreatDivisions, selectThreatError, selectThreatLevels, selectThreatMayChange, selectThreatRunning, selectThreatWholeClient,
} from '../../../machines/threatLevel';
import { threatChoicesLogic } from '../../api/readActors';
import { useChangeNotices } from '../../app/useChangeNotices';
import { useViewActor } from '../../app/useViewActor';
import { say, tx } from '../../i18n';
import { notify } from '../../system/notices';
import { useTime } from '../../ui/time';

const MODE_TEXT: Record<string, string> = { card: 'Doors as they are', 'card-pin': 'Card and PIN at every door', locked: 'Doors held locked' };
const intentOf = (mode: string | undefined) => (mode === 'locked' ? 'danger' : mode === 'card-pin' ? 'warning' : 'primary');
const modeText = (mode: string) => tx(MODE_TEXT[mode] ?? mode);

export function DoorsThreatPanel() {
  const time = useTime();
  const threat = useViewActor(threatChoicesLogic, { id: 'threatLevel:doors', input: { mayControl: true } });
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
  useEffect(() => {
    const sub = threat.on('threat.answered', ({ state: answer }) => {
      notify(answer.level
        ? { intent: intentOf(answer.level.mode), title: tx('Threat level'), message: tx('{name} is in force: {what}.', { name: answer.level.name, what: modeText(answer.level.mode) }), timeoutMs: 6000 }
        : { intent: 'success', title: tx('Threat level'), message: tx('No threat level is in force now.'), timeoutMs: 6000 });
      setOpen(false);
    });
    return () => sub.unsubscribe();
  }, [threat]);

  const place = where || (wholeClient ? 'all' : String(sites[0]?.id ?? ''));
  const placeName = place === 'all' ? tx('the whole client') : (sites.find((d) => String(d.id) === place)?.name ?? '');
  const chosen = levels.find((l) => String(l.id) === levelId) ?? null;
  const typed = minutes.trim();
  const minutesBad = typed !== '' && !(/^\d{1,5}$/.test(typed) && Number(typed) >= 1 && Number(typed) <= 10_080);

  if (!now) return null; // nothing read yet (a failed read is toasted by the api client)
  return (
    <Card compact className="gh-doors-threat gh-mb" data-testid="doors-threat">
      {error && <Callout intent="danger" icon="error" className="gh-mb" data-testid="doors-threat-error">{say(error)}</Callout>}
      <div className="gh-doors-threat__row">
        <div className="gh-doors-threat__now" data-testid="doors-threat-current">
          <Icon icon="shield" intent={now.level ? intentOf(now.level.mode) : 'success'} className="gh-mr" />
          <strong className="gh-mr">{tx('Threat level')}</strong>
          {now.level ? (
            <>
              <Tag intent={intentOf(now.level.mode)} className="gh-mr" data-testid="doors-threat-level">{now.level.name}</Tag>
              <span>{now.divisionName ? `${now.divisionName}: ` : `${tx('the whole client')}: `}{modeText(now.level.mode)}</span>
              {now.divisionName && <div className="bp6-text-muted" data-testid="doors-threat-elsewhere">{tx('Everywhere else: none')}</div>}
              <div className="bp6-text-muted">
                {tx('Set by {who} at {time}', { who: now.setBy ?? '', time: time.dateTime(now.setAt, true) })}
                {' · '}{now.until ? tx('reverts by itself at {time}', { time: time.dateTime(now.until, true) }) : tx('until lowered')}
              </div>
              {!mayChange && <div className="bp6-text-muted" data-testid="doors-threat-not-yours">{tx('It covers doors you do not control: only someone who controls them all can change it.')}</div>}
            </>
          ) : <span data-testid="doors-threat-none">{tx('None in force: the doors work as configured.')}</span>}
        </div>
        {mayChange && (
          <div className="gh-doors-threat__actions">
            {now.level && <Button icon="arrow-down" intent="success" variant="outlined" loading={running === 'lower'} disabled={running !== null}
              onClick={() => setAsking('lower')} data-testid="doors-threat-lower">{tx('Lower to none')}</Button>}
            <Button icon={open ? 'chevron-up' : 'shield'} variant="outlined" disabled={running !== null} onClick={() => setOpen(!open)} aria-expanded={open}
              data-testid="doors-threat-open">{now.level ? tx('Change level') : tx('Set a level')}</Button>
          </div>
        )}
      </div>
      {open && mayChange && (levels.length === 0 ? (
        <Callout className="gh-mt" icon="info-sign" data-testid="doors-threat-no-levels">{tx('This client has no threat levels yet: an administrator adds them under Threat levels.')}</Callout>
      ) : (
        <div className="gh-threat-set" data-testid="doors-threat-form">
          <FormGroup label={tx('Threat level')} labelFor="doors-threat-level">
            <HTMLSelect id="doors-threat-level" value={levelId} onChange={(e) => setLevelId(e.currentTarget.value)} data-testid="doors-threat-choose">
              <option value="">{tx('Choose a level')}</option>
              {levels.map((l) => <option key={l.id} value={l.id}>{`${l.rank} · ${l.name}`}</option>)}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={tx('Where')} labelFor="doors-threat-where">
            <HTMLSelect id="doors-threat-where" value={place} onChange={(e) => setWhere(e.currentTarget.value)} data-testid="doors-threat-where">
              {wholeClient && <option value="all">{tx('the whole client')}</option>}
              {sites.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={tx('For (minutes)')} labelFor="doors-threat-minutes" intent={minutesBad ? 'danger' : 'none'}
            helperText={minutesBad ? tx('A whole number of minutes from 1 to 10080') : tx('Empty: until lowered')}>
            <InputGroup id="doors-threat-minutes" value={minutes} inputMode="numeric" intent={minutesBad ? 'danger' : 'none'} onChange={(e) => setMinutes(e.currentTarget.value)} data-testid="doors-threat-minutes" />
          </FormGroup>
          <Button icon="shield" intent={intentOf(chosen?.mode)} disabled={!chosen || !place || minutesBad || running !== null} loading={running === 'set'}
            onClick={() => setAsking('set')} data-testid="doors-threat-set">{tx('Set level')}</Button>
        </div>
      ))}
      <Alert isOpen={asking !== null} intent={asking === 'set' ? intentOf(chosen?.mode) : 'success'} icon="shield" canEscapeKeyCancel cancelButtonText={tx('Cancel')}
        confirmButtonText={asking === 'set' ? tx('Set level') : tx('Lower to none')}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          threat.send(asking === 'set'
            ? { type: 'threat.set', levelId: Number(levelId), divisionId: place === 'all' ? null : Number(place), minutes: typed ? Number(typed) : null }
            : { type: 'threat.lower' });
          setAsking(null);
        }}>
        <div data-testid="doors-threat-confirm">
          {asking === 'set' && chosen
            ? <p>{tx('Put {name} in force for {where}? {what}.', { name: chosen.name, where: placeName, what: modeText(chosen.mode) })}</p>
            : <p>{tx('Lower the threat level? The doors go back to what they do without one.')}</p>}
        </div>
      </Alert>
    </Card>
  );
}
