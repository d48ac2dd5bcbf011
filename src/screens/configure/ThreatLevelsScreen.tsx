// /configure/threat-levels (issue 12): the client's ranked threat levels (the generated catalogue list: what each does
// at the doors and who still passes) under the level in force now — which, where, set by whom, until when — and, for
// holders of door control (0.4.5.4), one command to set a level for the whole client or one site, for some minutes
// or until lowered, and to lower it. Both ask first; the answer says what happened. Another console's change arrives
// as the resource's change notice and the panel reads the state again.
import { useState } from 'react';
import { Button, Callout, Card, FormGroup, HTMLSelect, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { PRIV, hasPrivilege, threatLevelsResource } from '../../../contract';
import { selectClientId, selectHeldPrivileges } from '../../../machines/session.selectors';
import { selectThreatCurrent, selectThreatDivisions, selectThreatError, selectThreatLevels, selectThreatRunning } from '../../../machines/threatLevel';
import { useChangeNotices } from '../../hooks/useChangeNotices';
import { useSystemActor } from '../../hooks/useSystemActor';
import { useViewActor } from '../../hooks/useViewActor';
import { say, tx, useLocale } from '../../i18n';
import { consoleResource } from '../../resources/registry';
import { ListScreen } from '../../ui/ListScreen';
import { useTime } from '../../ui/time';
import { ThreatConfirm, ThreatMinutes, intentOf, minutesAreBad, modeText, useThreatAnswers } from './threatParts';
import './threatPanel.css';

export function ThreatLevelsScreen() {
  useLocale();
  const session = useSystemActor('session');
  const clientId = useSelector(session, selectClientId);
  const mayControl = hasPrivilege(useSelector(session, selectHeldPrivileges), [PRIV.doors.control]);
  return (
    <ListScreen<{ id: number; name: string }>
      testId="threat-levels"
      resource={consoleResource('threatLevels')}
      before={<InForce key={`${clientId ?? 0}:${mayControl}`} mayControl={mayControl} />}
    />
  );
}

function InForce({ mayControl }: { mayControl: boolean }) {
  const time = useTime();
  const threat = useViewActor('threatLevelLogic', { input: { mayControl } });
  const now = useSelector(threat, selectThreatCurrent);
  const choices = useSelector(threat, selectThreatLevels);
  const divisions = useSelector(threat, selectThreatDivisions);
  const running = useSelector(threat, selectThreatRunning);
  const error = useSelector(threat, selectThreatError);
  // another console's change arrives as the resource's change notice, and a kept-alive panel is shown again: read again
  useChangeNotices({ resource: threatLevelsResource.name }, threat, { type: 'threat.changed' });
  // the answer of a command, said in a toast
  useThreatAnswers(threat);
  const [levelId, setLevelId] = useState(''); // visual: the level chosen to set
  const [where, setWhere] = useState('all'); // visual: the site chosen
  const [minutes, setMinutes] = useState(''); // visual: typed minutes (empty: until lowered)
  const [asking, setAsking] = useState<'set' | 'lower' | null>(null); // visual: which question is open
  const chosen = choices.find((l) => String(l.id) === levelId) ?? null;
  const typedMinutes = minutes.trim();
  const minutesBad = minutesAreBad(typedMinutes);

  return (
    <Card className="gh-mb" data-testid="threat-in-force">
      {error && (
        <Callout intent="danger" icon="error" className="gh-mb">
          {say(error)}
        </Callout>
      )}
      {now?.level ? (
        <Callout intent={intentOf(now.level.mode)} icon="shield" title={tx('In force: {name}', { name: now.level.name })} data-testid="threat-current">
          <div>
            <Tag minimal>
              {tx('Rank')} {now.level.rank}
            </Tag>{' '}
            {modeText(now.level.mode)} · {now.divisionName ?? tx('the whole client')}
          </div>
          <div className="bp6-text-muted">
            {tx('Set by {who} at {time}', { who: now.setByName ?? now.setBy ?? '', time: time.dateTime(now.setAt, true) })}
            {' · '}
            {now.until ? tx('reverts by itself at {time}', { time: time.dateTime(now.until, true) }) : tx('until lowered')}
          </div>
          {mayControl && (
            <Button
              className="gh-mt"
              icon="arrow-down"
              intent="success"
              loading={running === 'lower'}
              disabled={running !== null}
              onClick={() => setAsking('lower')}
              data-testid="threat-lower"
            >
              {tx('Lower to none')}
            </Button>
          )}
        </Callout>
      ) : now ? (
        <Callout icon="tick-circle" intent="success" data-testid="threat-current">
          {tx('No threat level is in force now.')}
        </Callout>
      ) : null}
      {mayControl && (
        <div className="gh-threat-set">
          <FormGroup label={tx('Threat level')} labelFor="threat-level">
            <HTMLSelect id="threat-level" value={levelId} onChange={(e) => setLevelId(e.currentTarget.value)} data-testid="threat-level">
              <option value="">{choices.length ? tx('Choose a level') : tx('No threat levels yet: add one below')}</option>
              {choices.map((l) => (
                <option key={l.id} value={l.id}>{`${l.rank} · ${l.name}`}</option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={tx('Where')} labelFor="threat-where">
            <HTMLSelect id="threat-where" value={where} onChange={(e) => setWhere(e.currentTarget.value)} data-testid="threat-where">
              <option value="all">{tx('the whole client')}</option>
              {divisions.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <ThreatMinutes id="threat-minutes" value={minutes} onChange={setMinutes} />
          <Button
            icon="shield"
            intent={intentOf(chosen?.mode)}
            disabled={!chosen || minutesBad || running !== null}
            loading={running === 'set'}
            onClick={() => setAsking('set')}
            data-testid="threat-set"
          >
            {tx('Set level')}
          </Button>
        </div>
      )}
      <ThreatConfirm
        asking={asking}
        chosen={chosen}
        testId="threat-confirm"
        onCancel={() => setAsking(null)}
        where={where === 'all' ? tx('the whole client') : (divisions.find((d) => String(d.id) === where)?.name ?? '')}
        onConfirm={() => {
          threat.send(
            asking === 'set'
              ? {
                  type: 'threat.set',
                  levelId: Number(levelId),
                  divisionId: where === 'all' ? null : Number(where),
                  minutes: typedMinutes ? Number(typedMinutes) : null,
                }
              : { type: 'threat.lower' },
          );
          setAsking(null);
        }}
      />
    </Card>
  );
}
