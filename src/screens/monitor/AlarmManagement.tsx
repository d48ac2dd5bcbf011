// Alarm management on the Alarms screen (issue 50, ISA-18.2): what a row says of its escalation and forward, its
// Forward… and Shelve… buttons with their dialogs, and above the list the flood (grouped by source) and the chattering
// sources suggested for shelving. Everything is read from the alarms actor and sent to it; the dialogs' typed values
// are visual state, kept when the server refuses.
import { useEffect, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Radio, RadioGroup, Tag, TextArea } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { FORWARD_NOTE_MAX, PRIV, SHELVE_CHOICES, SHELVE_REASON_MAX, eventPointIdOf, shelveLength, type Event } from '../../../contract';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { selectAlarmError } from '../../../machines/alarms.selectors';
import { selectAlarmGroups, selectChattering, selectFlood, selectForwardTargets, selectRunningCommand } from '../../../machines/alarms.management.selectors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { say, sayEvent, tx } from '../../i18n';

const pointName = (a: Event) => a.eventPointName ?? a.eventSourceName ?? String(eventPointIdOf(a));

/** What the row says of an alarm's escalation and forward. */
export function AlarmManagementTags({ alarm }: { alarm: Event }) {
  return (
    <>
      {alarm.escalationStep ? (
        <Tag intent="warning" minimal className="gh-ml-xs" data-testid="alarm-escalated" title={tx('Not acknowledged in time')}>
          {tx('Escalated')} {alarm.escalationStep}: {alarm.escalatedTo ?? ''}
        </Tag>
      ) : null}
      {alarm.forwardedTo ? (
        <Tag minimal className="gh-ml-xs" data-testid="alarm-forwarded" title={alarm.forwardNote ?? undefined}>
          {tx('Forwarded to')} {alarm.forwardedTo}
        </Tag>
      ) : null}
    </>
  );
}

/** Sends a command and closes its dialog once the machine is back to ready without an error (kept open on one). */
function useCommandDialog() {
  const alarms = useSystemActor('alarms');
  const running = useSelector(alarms, selectRunningCommand);
  const error = useSelector(alarms, selectAlarmError);
  // visual: the dialog open, and that its command was sent (it closes with the answer)
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(false);
  useEffect(() => {
    if (sent && running === 'ready') {
      setSent(false);
      if (!error) setOpen(false);
    }
  }, [sent, running, error]);
  return { alarms, open, setOpen, busy: running !== 'ready', error: sent || !open ? null : error, markSent: () => setSent(true) };
}

export function ShelveDialog({ pointId, name, onClose }: { pointId: Event['id']; name: string; onClose: () => void }) {
  const d = useCommandDialog();
  // visual: what is chosen and typed, until it is sent
  const [minutes, setMinutes] = useState<number>(SHELVE_CHOICES[1]);
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => d.setOpen(true), []); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!d.open && touched) onClose();
  }, [d.open, touched, onClose]);
  const missing = reason.trim() === '';
  const send = () => {
    setTouched(true);
    if (missing) return;
    d.alarms.send({ type: 'source.shelve', pointId: String(pointId), minutes, reason: reason.trim() });
    d.markSent();
  };
  return (
    <Dialog isOpen onClose={onClose} title={tx('Shelve alarm source')} icon="archive">
      <DialogBody>
        <p>
          <strong>{name}</strong>
          <br />
          <span className="bp6-text-muted">{tx('Its alarms are still recorded but raise nothing on screen until the shelving ends by itself.')}</span>
        </p>
        <FormGroup label={tx('For')} labelFor="shelve-minutes">
          <HTMLSelect id="shelve-minutes" value={minutes} onChange={(e) => setMinutes(Number(e.currentTarget.value))} data-testid="shelve-minutes">
            {SHELVE_CHOICES.map((m) => (
              <option key={m} value={m}>
                {shelveLength(m)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup
          label={tx('Reason')}
          labelFor="shelve-reason"
          intent={touched && missing ? 'danger' : 'none'}
          helperText={touched && missing ? tx('Reason is required') : tx('Why it is kept off the screen (e.g. contractor at work).')}
        >
          <InputGroup
            id="shelve-reason"
            value={reason}
            maxLength={SHELVE_REASON_MAX}
            intent={touched && missing ? 'danger' : 'none'}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-testid="shelve-reason"
          />
        </FormGroup>
        {d.error && (
          <Callout intent="danger" data-testid="shelve-error">
            {say(d.error)}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{tx('Cancel')}</Button>
            <Button intent="warning" loading={d.busy} onClick={send} data-testid="shelve-submit">
              {tx('Shelve')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

function ForwardDialog({ alarm, onClose }: { alarm: Event; onClose: () => void }) {
  const d = useCommandDialog();
  const targets = useSelector(d.alarms, selectForwardTargets);
  // visual: what is chosen and typed, until it is sent
  const [kind, setKind] = useState<'user' | 'group'>('user');
  const [target, setTarget] = useState('');
  const [note, setNote] = useState('');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    d.setOpen(true);
    if (!targets) d.alarms.send({ type: 'forward.targetsWanted' });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!d.open && touched) onClose();
  }, [d.open, touched, onClose]);
  const options = kind === 'user' ? (targets?.operators ?? []) : (targets?.groups ?? []);
  const noTarget = target === '';
  const noNote = note.trim() === '';
  const send = () => {
    setTouched(true);
    if (noTarget || noNote) return;
    const id = Number(target);
    d.alarms.send({ type: 'alarm.forward', id: alarm.id, ...(kind === 'user' ? { userId: id } : { groupId: id }), note: note.trim() });
    d.markSent();
  };
  return (
    <Dialog isOpen onClose={onClose} title={tx('Forward alarm')} icon="share">
      <DialogBody>
        <p>
          <strong>{sayEvent(alarm)}</strong> <span className="bp6-text-muted">{pointName(alarm)}</span>
        </p>
        <RadioGroup
          inline
          selectedValue={kind}
          onChange={(e) => {
            setKind(e.currentTarget.value as 'user' | 'group');
            setTarget('');
          }}
        >
          <Radio value="user" label={tx('An operator')} data-testid="forward-kind-user" />
          <Radio value="group" label={tx('An operator group')} data-testid="forward-kind-group" />
        </RadioGroup>
        <FormGroup
          label={kind === 'user' ? tx('Operator') : tx('Operator group')}
          labelFor="forward-target"
          intent={touched && noTarget ? 'danger' : 'none'}
          helperText={touched && noTarget ? tx('Choose whom to forward it to') : undefined}
        >
          <HTMLSelect id="forward-target" value={target} onChange={(e) => setTarget(e.currentTarget.value)} data-testid="forward-target" fill>
            <option value="">{targets ? tx('Choose…') : tx('Loading…')}</option>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup
          label={tx('Note')}
          labelFor="forward-note"
          intent={touched && noNote ? 'danger' : 'none'}
          helperText={touched && noNote ? tx('Note is required') : tx('What they should look at or do.')}
        >
          <TextArea
            id="forward-note"
            fill
            value={note}
            maxLength={FORWARD_NOTE_MAX}
            intent={touched && noNote ? 'danger' : 'none'}
            onChange={(e) => setNote(e.currentTarget.value)}
            data-testid="forward-note"
          />
        </FormGroup>
        {d.error && (
          <Callout intent="danger" data-testid="forward-error">
            {say(d.error)}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{tx('Cancel')}</Button>
            <Button intent="primary" loading={d.busy} onClick={send} data-testid="forward-submit">
              {tx('Forward')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}

/** A row's Forward… and Shelve… buttons, for those who hold the privileges. */
export function AlarmManagementButtons({ alarm, large = false }: { alarm: Event; large?: boolean }) {
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const [dialog, setDialog] = useState<'forward' | 'shelve' | null>(null); // visual: the open dialog
  const size = large ? undefined : 'small';
  return (
    <>
      {held.has(PRIV.alarms.forward) && (
        <Button size={size} icon="share" onClick={() => setDialog('forward')} data-testid="alarm-forward">
          {tx('Forward…')}
        </Button>
      )}
      {held.has(PRIV.alarms.shelve) && (
        <Button size={size} icon="archive" onClick={() => setDialog('shelve')} data-testid="alarm-shelve">
          {tx('Shelve…')}
        </Button>
      )}
      {dialog === 'forward' && <ForwardDialog alarm={alarm} onClose={() => setDialog(null)} />}
      {dialog === 'shelve' && <ShelveDialog pointId={eventPointIdOf(alarm)} name={pointName(alarm)} onClose={() => setDialog(null)} />}
    </>
  );
}

/** Above the list: the flood, grouped by source, and the chattering sources suggested for shelving. */
export function AlarmFloodPanel() {
  const alarms = useSystemActor('alarms');
  const flood = useSelector(alarms, selectFlood);
  const chattering = useSelector(alarms, selectChattering);
  const groups = useSelector(alarms, selectAlarmGroups);
  const mayShelve = useSelector(useSystemActor('session'), selectHeldPrivileges).has(PRIV.alarms.shelve);
  const [shelving, setShelving] = useState<{ pointId: Event['id']; name: string } | null>(null); // visual: the open dialog
  if (!flood.inFlood && chattering.length === 0) return null;
  return (
    <div className="gh-mb" data-testid="alarm-flood-panel">
      {flood.inFlood && (
        <Callout intent="warning" icon="flows" title={tx('Alarm flood')} className="gh-mb" data-testid="alarm-flood">
          <p>{tx('{n} alarms within 10 minutes: more than one operator can handle. Grouped by source:').replace('{n}', String(flood.count))}</p>
          <ul className="gh-alarm-groups">
            {groups.map((g) => (
              <li key={String(g.pointId)} data-testid="alarm-group">
                <strong>{g.name}</strong> <Tag minimal>{g.alarms.length}</Tag>
              </li>
            ))}
          </ul>
        </Callout>
      )}
      {chattering.length > 0 && (
        <Callout intent="primary" icon="repeat" title={tx('Chattering sources')} data-testid="alarm-chattering">
          <p>{tx('These sources raised and cleared more than 3 times within a minute; shelving them keeps the list readable.')}</p>
          <ul className="gh-alarm-groups">
            {chattering.map((c) => (
              <li key={String(c.pointId)}>
                <strong>{c.name ?? String(c.pointId)}</strong> <Tag minimal>{c.count}</Tag>{' '}
                {mayShelve && (
                  <Button size="small" icon="archive" onClick={() => setShelving({ pointId: c.pointId, name: c.name ?? String(c.pointId) })}>
                    {tx('Shelve…')}
                  </Button>
                )}
              </li>
            ))}
          </ul>
        </Callout>
      )}
      {shelving && <ShelveDialog pointId={shelving.pointId} name={shelving.name} onClose={() => setShelving(null)} />}
    </div>
  );
}
