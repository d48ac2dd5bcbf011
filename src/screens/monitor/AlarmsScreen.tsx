// /monitor/alarms: the open alarms of this client, most urgent first, live. Acknowledge and process (with a note)
// are commands to the alarms actor; the buttons ask the snapshot whether they may be sent.
import { memo, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, NonIdealState, Tag, TextArea, type Intent } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { PRIV, type Event } from '../../../contract';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import {
  commandsOf,
  sameAlarmCommands,
  selectAlarmCommands,
  selectAlarmError,
  selectIsCommandBusy,
  selectIsSyncing,
  selectOpenAlarms,
} from '../../../machines/alarms.selectors';
import { selectSocketStatus } from '../../../machines/socket.selectors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { useIsMobile } from '../../hooks/useMediaQuery';
import { SoundControl } from '../../app/SoundControl';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import { say, sayEvent, sayInstructions, tCat, useLocale, useT, tx } from '../../i18n';
import { violationText } from '../../i18n/violations';
import { alarmNoteState } from './alarmNote';
import { AlarmFloodPanel, AlarmManagementButtons, AlarmManagementTags } from './AlarmManagement';
import './alarms.css';

const priorityIntent = (p: number): Intent => (p <= 1 ? 'danger' : p <= 3 ? 'warning' : 'none');
const STATUS_INTENT = { connected: 'success', connecting: 'warning', waiting: 'danger', idle: 'none' } as const;

const AlarmRow = memo(function AlarmRow({
  alarm,
  ack,
  process,
  onAck,
  onProcess,
}: {
  alarm: Event;
  ack: boolean;
  process: boolean;
  onAck: (id: Event['id']) => void;
  onProcess: (a: Event) => void;
}) {
  const { dateTime } = useTime();
  return (
    <tr data-testid="alarm-row" data-alarm-id={String(alarm.id)}>
      <td>
        <Tag intent={priorityIntent(alarm.priority)} minimal={alarm.priority > 3}>
          P{alarm.priority}
        </Tag>
      </td>
      <td className="gh-nowrap">{dateTime(alarm.time)}</td>
      <td>{alarm.eventPointName ?? alarm.eventSourceName ?? String(alarm.eventPointId ?? alarm.eventSourceId)}</td>
      <td>{sayEvent(alarm)}</td>
      <td className="bp6-text-muted gh-alarm-instructions">{sayInstructions(alarm)}</td>
      <td>
        {alarm.acknowledge ? (
          <Tag intent="primary" minimal>
            {tx('Acknowledged')}
          </Tag>
        ) : (
          <Tag intent="danger">{tx('New')}</Tag>
        )}
        <AlarmManagementTags alarm={alarm} />
      </td>
      <td className="gh-nowrap">
        <Button size="small" icon="tick" disabled={!ack} onClick={() => onAck(alarm.id)} data-testid="alarm-acknowledge">
          {tx('Acknowledge')}
        </Button>{' '}
        <Button size="small" icon="confirm" intent="primary" disabled={!process} onClick={() => onProcess(alarm)} data-testid="alarm-process">
          {tx('Process…')}
        </Button>{' '}
        <AlarmManagementButtons alarm={alarm} />
      </td>
    </tr>
  );
});

/** Below 992 px an alarm is a card: what and where first, its two buttons full width under it (issue 10). */
const AlarmCard = memo(function AlarmCard({
  alarm,
  ack,
  process,
  onAck,
  onProcess,
}: {
  alarm: Event;
  ack: boolean;
  process: boolean;
  onAck: (id: Event['id']) => void;
  onProcess: (a: Event) => void;
}) {
  const { dateTime } = useTime();
  return (
    <li className={`gh-alarm-card${alarm.priority <= 1 ? ' gh-alarm-card--p1' : ''}`} data-testid="alarm-row" data-alarm-id={String(alarm.id)}>
      <div className="gh-alarm-card__top">
        <Tag intent={priorityIntent(alarm.priority)} minimal={alarm.priority > 3}>
          P{alarm.priority}
        </Tag>
        <strong className="gh-alarm-card__point">{alarm.eventPointName ?? alarm.eventSourceName ?? String(alarm.eventPointId ?? alarm.eventSourceId)}</strong>
        {alarm.acknowledge ? (
          <Tag intent="primary" minimal>
            {tx('Acknowledged')}
          </Tag>
        ) : (
          <Tag intent="danger">{tx('New')}</Tag>
        )}
        <AlarmManagementTags alarm={alarm} />
      </div>
      <div className="gh-alarm-card__message">{sayEvent(alarm)}</div>
      {alarm.instructions && <div className="gh-alarm-card__instructions bp6-text-muted">{sayInstructions(alarm)}</div>}
      <div className="gh-alarm-card__time bp6-text-muted">{dateTime(alarm.time)}</div>
      <div className="gh-alarm-card__actions">
        <Button icon="tick" disabled={!ack} onClick={() => onAck(alarm.id)} data-testid="alarm-acknowledge">
          {tx('Acknowledge')}
        </Button>
        <Button icon="confirm" intent="primary" disabled={!process} onClick={() => onProcess(alarm)} data-testid="alarm-process">
          {tx('Process…')}
        </Button>
        <AlarmManagementButtons alarm={alarm} large />
      </div>
    </li>
  );
});

export function AlarmsScreen() {
  const alarms = useSystemActor('alarms');
  const socket = useSystemActor('socket.events');
  const open = useSelector(alarms, selectOpenAlarms);
  const busy = useSelector(alarms, selectIsCommandBusy);
  const syncing = useSelector(alarms, selectIsSyncing);
  const error = useSelector(alarms, selectAlarmError);
  const status = useSelector(socket, selectSocketStatus);
  // acknowledging and processing need 0.2.1.1; viewing alone (an auditor) leaves the buttons off
  const mayAct = useSelector(useSystemActor('session'), selectHeldPrivileges).has(PRIV.alarms.act);
  // which buttons are enabled, asked of the machine
  const commands = useSelector(alarms, selectAlarmCommands, sameAlarmCommands);
  const mobile = useIsMobile();
  const [processing, setProcessing] = useState<Event | null>(null); // visual: the open dialog
  const [note, setNote] = useState(''); // visual: the note as typed
  const { zoneName } = useTime();
  const t = useT();
  const locale = useLocale();
  // the note is checked by the contract's rule and counted toward its limit, never cut (issue 29)
  const noteState = alarmNoteState(note, locale);

  const submit = () => {
    if (!processing || noteState.problem) return;
    alarms.send({ type: 'alarm.process', id: processing.id, note: note.trim() });
    setProcessing(null);
    setNote('');
  };

  return (
    <div className="gh-page" data-testid="alarms-screen">
      <PageHeader
        title={tx('Alarms')}
        icon="warning-sign"
        description={
          <>
            {tx('Open alarms, most urgent first.')}{' '}
            <Tag minimal intent={STATUS_INTENT[status]} data-testid="socket-status" data-status={status}>
              {tx(status)}
            </Tag>{' '}
            {syncing && <Tag minimal>{tx('syncing…')}</Tag>}
          </>
        }
        actions={<SoundControl testId="alarm-sound-screen" />}
      />
      {error && (
        <Callout intent="danger" title={tx('Alarm command failed')} className="gh-mb">
          {say(error)}{' '}
          <Button variant="minimal" size="small" onClick={() => alarms.send({ type: 'alarm.errorDismissed' })}>
            {tx('Dismiss')}
          </Button>
        </Callout>
      )}
      <AlarmFloodPanel />
      {open.length === 0 ? (
        <NonIdealState icon="tick-circle" title={tx('No open alarms')} description={tx('New alarms appear here as they are raised.')} />
      ) : mobile ? (
        <ul className="gh-alarm-cards" data-testid="alarms-table">
          {open.map((a) => {
            const c = commandsOf(commands, a.id);
            return (
              <AlarmCard
                key={String(a.id)}
                alarm={a}
                ack={mayAct && !busy && c.acknowledge}
                process={mayAct && !busy && c.process}
                onAck={(id) => alarms.send({ type: 'alarm.acknowledge', id })}
                onProcess={(al) => {
                  setProcessing(al);
                  setNote('');
                }}
              />
            );
          })}
        </ul>
      ) : (
        <HTMLTable compact striped interactive className="gh-table-full" data-testid="alarms-table">
          <thead>
            <tr>
              <th>{tx('Priority')}</th>
              <th>{t('timeColumn', { zone: zoneName() })}</th>
              <th>{tx('Point')}</th>
              <th>{tx('Message')}</th>
              <th>{tx('Instructions')}</th>
              <th>{tx('State')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {open.map((a) => {
              const c = commandsOf(commands, a.id);
              return (
                <AlarmRow
                  key={String(a.id)}
                  alarm={a}
                  ack={mayAct && !busy && c.acknowledge}
                  process={mayAct && !busy && c.process}
                  onAck={(id) => alarms.send({ type: 'alarm.acknowledge', id })}
                  onProcess={(al) => {
                    setProcessing(al);
                    setNote('');
                  }}
                />
              );
            })}
          </tbody>
        </HTMLTable>
      )}
      <Dialog isOpen={processing !== null} onClose={() => setProcessing(null)} title={tx('Process alarm')} icon="confirm">
        <DialogBody>
          {processing && (
            <p>
              <strong>{sayEvent(processing)}</strong>
              <br />
              <span className="bp6-text-muted">{sayInstructions(processing)}</span>
            </p>
          )}
          <FormGroup
            label={tx('Operator note')}
            labelFor="alarm-note"
            intent={noteState.over ? 'danger' : 'none'}
            helperText={
              <span className="gh-alarm-note__help">
                <span data-testid="alarm-note-error">
                  {noteState.over && noteState.problem
                    ? violationText(noteState.problem, locale, (k, e) => tCat(k, e, locale))
                    : tx('Required: what was found and done.')}
                </span>{' '}
                <span id="alarm-note-counter" className="gh-nowrap" data-testid="alarm-note-counter" aria-live="polite">
                  {noteState.counter}
                </span>
              </span>
            }
          >
            <TextArea
              id="alarm-note"
              fill
              autoFocus
              value={note}
              intent={noteState.over ? 'danger' : 'none'}
              aria-invalid={noteState.over}
              aria-describedby="alarm-note-counter"
              onChange={(e) => setNote(e.currentTarget.value)}
              data-testid="alarm-note"
            />
          </FormGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={() => setProcessing(null)}>{tx('Cancel')}</Button>
              <Button intent="primary" disabled={noteState.problem !== undefined} onClick={submit} data-testid="alarm-process-submit">
                {tx('Process')}
              </Button>
            </>
          }
        />
      </Dialog>
    </div>
  );
}
