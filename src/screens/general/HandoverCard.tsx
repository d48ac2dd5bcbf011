// The dashboard's shift handover (issue 31, part 3) [0.2.6.0]: the digest of the shift that ended last, for the
// current client, read through the `handoverReading` actor — alarms raised, processed and still open at the end (with
// their notes), doors not in their normal mode, the threat level, hardware offline, visitors on site and notable
// denials, every time in the user's zone. Until someone acknowledges it, a holder of 0.2.6.1 acknowledges it here with
// an optional note for the next shift (counter, limit from the contract; the `handoverCommands` actor sends it and a
// toast says what happened). Print uses window.print with the print stylesheet of ./handover.css.
import { useState, type ReactNode } from 'react';
import { Button, Callout, Card, Classes, FormGroup, HTMLTable, Icon } from '@blueprintjs/core';
import { ShortTag } from '../../ui/ShortTag';
import { useSelector } from '@xstate/react';
import { hasPrivilege, PRIV, formatNumber } from '../../../contract';
import { AcknowledgeHandoverBody, HANDOVER_NOTE_MAX, type HandoverDigest } from '../../../contract/handover';
import { validate } from '../../../contract';
import { selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useCommand } from '../../hooks/useCommand';
import { useReading } from '../../hooks/useReading';
import { useSystemActor } from '../../hooks/useSystemActor';
import { tx, useLocale } from '../../i18n';
import { useTime } from '../../ui/time';
import './handover.css';

/** A door's state in words (contract/doors.ts statuses, door modes, an override's mode). */
function stateLabel(state: string): string {
  switch (state) {
    case 'unlocked':
      return tx('Unlocked');
    case 'unlocked-briefly':
      return tx('Unlocked briefly');
    case 'forced-open':
      return tx('Forced open');
    case 'held-open':
      return tx('Held open');
    case 'offline':
      return tx('Offline');
    case 'tamper':
      return tx('Tamper');
    case 'locked-down':
      return tx('Locked down');
    case 'locked':
      return tx('Locked');
    default:
      return state;
  }
}

function Section({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <section className="gh-handover__section">
      <h6 className="bp6-heading">
        {title}{' '}
        <ShortTag minimal round>
          {formatNumber(count)}
        </ShortTag>
      </h6>
      {count === 0 ? <p className="bp6-text-muted">{tx('None.')}</p> : children}
    </section>
  );
}

export function HandoverCard() {
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  if (!hasPrivilege(held, [PRIV.handover.view])) return null;
  return <Handover mayAcknowledge={hasPrivilege(held, [PRIV.handover.acknowledge])} />;
}

function Handover({ mayAcknowledge }: { mayAcknowledge: boolean }) {
  const time = useTime();
  const locale = useLocale();
  const reading = useReading<HandoverDigest | null>('handoverReading');
  const [note, setNote] = useState(''); // visual: the note as typed
  const [noteError, setNoteError] = useState<string | null>(null); // visual: what is wrong with the note typed
  const commands = useCommand(
    'handoverCommands',
    (_, result) =>
      (result as { acknowledged?: unknown }).acknowledged
        ? { title: tx('Handover acknowledged'), message: tx('Your acknowledgement is recorded in the activity report.') }
        : null,
    (_, result) => {
      const r = result as { violations?: { field: string; message: string }[] };
      if (r.violations?.length) {
        setNoteError(r.violations[0].message);
        return;
      }
      setNote('');
      reading.reload();
    },
  );
  const sending = useSelector(commands, selectRunningCommand) !== null;
  const d = reading.output;
  if (!d) return null;
  const n = new Intl.NumberFormat(locale);
  const over = note.length > HANDOVER_NOTE_MAX;
  const acknowledge = () => {
    const input = { end: d.end, note: note.trim() ? note : null };
    const checked = validate(input, AcknowledgeHandoverBody);
    if (!checked.ok) {
      setNoteError(checked.violations[0]?.message ?? null);
      return;
    }
    setNoteError(null);
    commands.send({ type: 'command.run', command: 'acknowledge', input });
  };
  const when = (iso: string | null) => (iso ? time.dateTime(iso) : tx('unknown'));
  return (
    <Card className="gh-handover" data-testid="handover" aria-labelledby="handover-title">
      <h5 className="bp6-heading gh-card-title" id="handover-title">
        <Icon icon="exchange" /> {tx('Shift handover')}
        <span className="gh-card-title__aside bp6-text-muted" data-testid="handover-shift">
          {tx('{start} to {end}', { start: time.dateTime(d.start), end: time.dateTime(d.end) })} ({time.zoneName(d.end)})
        </span>
      </h5>
      {d.previousNote && (
        <Callout intent="primary" icon="comment" title={tx('Note from the previous shift')} data-testid="handover-previous-note">
          <p className="gh-handover__note">{d.previousNote.note}</p>
          <p className="bp6-text-muted">{tx('Written by {name} at {at}', { name: d.previousNote.name, at: time.dateTime(d.previousNote.at) })}</p>
        </Callout>
      )}
      <div className="gh-handover__figures" data-testid="handover-figures">
        <span>
          <strong data-testid="handover-raised">{formatNumber(d.alarms.raised)}</strong> {tx('alarms raised')}
        </span>
        <span>
          <strong data-testid="handover-processed">{formatNumber(d.alarms.processed)}</strong> {tx('processed')}
        </span>
        <span>
          <strong data-testid="handover-open">{formatNumber(d.alarms.open.length)}</strong> {tx('open at the end')}
        </span>
        <span>
          <strong data-testid="handover-denials">{formatNumber(d.denials.total)}</strong> {tx('denied swipes')}
        </span>
      </div>
      {d.threatLevel && (
        <Callout intent="danger" icon="warning-sign" title={tx('Threat level {name} in force', { name: d.threatLevel.name })} data-testid="handover-threat">
          {tx('Since {at}, set by {name}', { at: time.dateTime(d.threatLevel.since), name: d.threatLevel.setBy })}
        </Callout>
      )}
      <div className="gh-handover__grid">
        <Section title={tx('Alarms open at the end of the shift')} count={d.alarms.open.length}>
          <ul className="gh-handover__list" data-testid="handover-open-alarms">
            {d.alarms.open.map((a) => (
              <li key={a.id}>
                <ShortTag minimal intent={a.priority <= 1 ? 'danger' : 'warning'}>
                  P{a.priority}
                </ShortTag>{' '}
                {a.name} — {a.point} · {time.dateTime(a.raisedAt)}
                {a.acknowledgedBy && <span className="bp6-text-muted"> · {tx('acknowledged by {name}', { name: a.acknowledgedBy })}</span>}
                {a.notes.map((x, i) => (
                  <div key={i} className="gh-handover__note bp6-text-muted">
                    “{x.note}” — {x.actor ?? tx('system')}, {time.dateTime(x.at)}
                  </div>
                ))}
              </li>
            ))}
          </ul>
        </Section>
        <Section title={tx('Doors not in their normal mode')} count={d.doors.length}>
          <ul className="gh-handover__list" data-testid="handover-doors">
            {d.doors.map((x) => (
              <li key={`${x.kind}-${x.id}-${x.detail ?? ''}`}>
                {x.name}: <strong>{stateLabel(x.state)}</strong>
                {x.detail ? ` (${x.detail})` : ''} · {tx('since {at}', { at: when(x.since) })}
              </li>
            ))}
          </ul>
        </Section>
        <Section title={tx('Hardware offline')} count={d.offline.length}>
          <ul className="gh-handover__list" data-testid="handover-offline">
            {d.offline.map((x) => (
              <li key={`${x.kind}-${x.id}`}>
                {x.name} · {tx('since {at}', { at: when(x.since) })}
              </li>
            ))}
          </ul>
        </Section>
        <Section title={tx('Visitors still signed in')} count={d.visitors.length}>
          <ul className="gh-handover__list" data-testid="handover-visitors">
            {d.visitors.map((v) => (
              <li key={v.id}>
                {v.name}
                {v.company ? ` (${v.company})` : ''} · {tx('visiting {host}', { host: v.host })} · {when(v.signedInAt)}
              </li>
            ))}
          </ul>
        </Section>
        {/* issue 50: the alarm sources shelved during the shift, why, by whom, until when and when they ended */}
        <Section title={tx('Alarm sources shelved')} count={d.shelvings?.length ?? 0}>
          <ul className="gh-handover__list" data-testid="handover-shelvings">
            {(d.shelvings ?? []).map((x) => (
              <li key={x.id}>
                <strong>{x.pointName ?? tx('unknown')}</strong>: “{x.reason}” — {x.by}, {time.dateTime(x.at)} ·{' '}
                {x.endedAt ? tx('ended {at}', { at: time.dateTime(x.endedAt) }) : tx('until {at}', { at: time.dateTime(x.until) })}
              </li>
            ))}
          </ul>
        </Section>
        <Section title={tx('Notable denials')} count={d.denials.total}>
          <HTMLTable compact className="gh-handover__table" data-testid="handover-denials-table">
            <tbody>
              {d.denials.byReason.map((r) => (
                <tr key={r.code}>
                  <td>{r.label}</td>
                  <td>{formatNumber(r.count)}</td>
                </tr>
              ))}
              {d.denials.repeated.map((r) => (
                <tr key={r.credential}>
                  <td>{tx('Denied again and again: {who}', { who: r.name ? `${r.credential} (${r.name})` : r.credential })}</td>
                  <td>{formatNumber(r.count)}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </Section>
      </div>
      <p className="bp6-text-muted gh-handover__asof">{tx('Doors, hardware and visitors as of {at}.', { at: time.dateTime(d.asOf) })}</p>
      {d.acknowledgement ? (
        <Callout intent="success" icon="tick-circle" data-testid="handover-acknowledged">
          {tx('Acknowledged by {name} at {at}', { name: d.acknowledgement.name, at: time.dateTime(d.acknowledgement.at) })}
          {d.acknowledgement.note && (
            <p className="gh-handover__note">
              {tx('Note for the next shift:')} {d.acknowledgement.note}
            </p>
          )}
        </Callout>
      ) : mayAcknowledge ? (
        <div className="gh-handover__ack gh-handover__noprint">
          <FormGroup
            label={tx('Note for the next shift (optional)')}
            labelFor="handover-note"
            intent={over || noteError ? 'danger' : 'none'}
            helperText={
              <>
                {(over || noteError) && <span data-testid="handover-note-error">{tx('At most {max} characters', { max: n.format(HANDOVER_NOTE_MAX) })} </span>}
                <span
                  className="gh-nowrap"
                  data-testid="handover-note-counter"
                  aria-live="polite"
                >{`${n.format(note.length)} / ${n.format(HANDOVER_NOTE_MAX)}`}</span>
              </>
            }
          >
            {/* Blueprint's text area as its CSS API (issue 48): its TextArea component reads the element's
                scrollHeight as it mounts and on every change, a layout of the page forced inside React's commit (16-25
                ms of the cold dashboard's longest task) for a height it sets only when asked to grow */}
            <textarea
              id="handover-note"
              className={`${Classes.INPUT} ${Classes.TEXT_AREA} ${Classes.FILL}${over ? ` ${Classes.intentClass('danger')}` : ''}`}
              value={note}
              aria-invalid={over}
              onChange={(e) => {
                setNote(e.target.value);
                setNoteError(null);
              }}
              data-testid="handover-note"
            />
          </FormGroup>
        </div>
      ) : null}
      <div className="gh-handover__actions gh-handover__noprint">
        {!d.acknowledgement && mayAcknowledge && (
          <Button intent="primary" icon="tick" loading={sending} disabled={over} onClick={acknowledge} data-testid="handover-acknowledge">
            {tx('Acknowledge')}
          </Button>
        )}
        <Button icon="print" variant="outlined" onClick={() => window.print()} data-testid="handover-print">
          {tx('Print')}
        </Button>
      </div>
    </Card>
  );
}
