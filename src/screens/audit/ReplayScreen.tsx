// /monitor/replay (privilege 0.8.1.0, enforced by the route guard): export this console's journal, or load one and
// step through it on a timeline, machine by machine, with the replay's verdict per step. Auditors holding 0.8.2.0
// also see the sessions recorded by sampled consoles (§9 session replay) and open one the same way. The loaded
// journal lives in the replayViewer actor; this view only keeps which step is selected.
import { useEffect, useMemo, useState, type ChangeEvent } from 'react';
import { Button, Callout, Card, Classes, FileInput, HTMLSelect, HTMLTable, Intent, NonIdealState, Slider, Spinner, Tag } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { replayViewerMachine, type ReplayViewerContext } from '../../../machines/journal';
import { selectJournalActors, selectTimeline, type TimelineStep } from '../../../machines/journal.selectors';
import { journalNdjson } from '../../hooks/console';
import { useSystemActor } from '../../hooks/useSystemActor';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { selectCommandError, selectRunningCommand, type CommandSnapshot } from '../../../machines/command';
import { useReading } from '../../hooks/useReading';
import { useViewActor } from '../../hooks/useViewActor';
import { showDateTime, useTime } from '../../ui/time';
import { say, useT, tx } from '../../i18n';
import { PRIV, hasPrivilege, type RecordingSummary } from '../../../contract';

type ViewerSnapshot = { context: ReplayViewerContext; hasTag: (t: 'busy') => boolean };
const selectContext = (s: ViewerSnapshot) => s.context;
const selectBusy = (s: ViewerSnapshot) => s.hasTag('busy');
const json = (v: unknown) => JSON.stringify(v, null, 2);

function downloadJournal(): void {
  const blob = new Blob([journalNdjson()], { type: 'application/x-ndjson' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `gatehouse-journal-${new Date().toISOString().replace(/[:.]/g, '-')}.ndjson`;
  a.click();
  URL.revokeObjectURL(url);
}

function StepLabel({ step }: { step: TimelineStep }) {
  const verdict = step.diverged ? (
    <Tag intent={Intent.DANGER} minimal>
      {tx('diverged')}
    </Tag>
  ) : step.step ? (
    <Tag intent={Intent.SUCCESS} minimal>
      {step.step.fed ? 'replayed' : 'produced'}
    </Tag>
  ) : (
    <Tag minimal>{tx('not replayed')}</Tag>
  );
  return (
    <span>
      <span className={Classes.TEXT_MUTED}>line {step.line}</span> <strong>{step.entry.actor}</strong> ← {step.entry.event.type} {verdict}
    </span>
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const recordingName = (r: RecordingSummary) => `${r.username}, ${showDateTime(r.startedAt, true)}`;

/** The client's recorded sessions (newest activity first); Open loads one into the timeline. */
function RecordedSessions({ busy, opening, onOpen }: { busy: boolean; opening: string | null; onOpen: (r: RecordingSummary) => void }) {
  const list = useReading<{ items: RecordingSummary[]; total: number }>('recordingsReading');
  const time = useTime();
  const t = useT();
  return (
    <Card data-testid="recorded-sessions">
      <h4 className={Classes.HEADING}>
        {tx('Recorded sessions')}{' '}
        <Button small minimal icon="refresh" aria-label={tx('Refresh recorded sessions')} onClick={list.reload} disabled={list.busy} />
      </h4>
      {list.busy && <Spinner size={20} />}
      {list.failed && <Callout intent={Intent.WARNING}>{tx('The recorded sessions could not be loaded.')}</Callout>}
      {!list.busy &&
        !list.failed &&
        list.output &&
        (list.output.items.length === 0 ? (
          <p className={Classes.TEXT_MUTED}>{tx('No session has been recorded yet: one session in ten uploads its journal.')}</p>
        ) : (
          <HTMLTable compact striped style={{ width: '100%' }}>
            <thead>
              <tr>
                <th>{tx('User')}</th>
                <th>{t('startedColumn', { zone: time.zoneName() })}</th>
                <th>{tx('Entries')}</th>
                <th>{tx('Size')}</th>
                <th>{tx('Session')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {list.output.items.map((r) => (
                <tr key={r.id} data-testid="recorded-session" data-recording={r.id}>
                  <td>
                    {r.name} <span className={Classes.TEXT_MUTED}>({r.username})</span>
                  </td>
                  <td>{time.dateTime(r.startedAt)}</td>
                  <td>{r.entries}</td>
                  <td>{kb(r.bytes)}</td>
                  <td>
                    {r.ended ? (
                      <Tag minimal>{tx('ended')}</Tag>
                    ) : (
                      <Tag minimal intent={Intent.PRIMARY}>
                        {tx('live')}
                      </Tag>
                    )}
                  </td>
                  <td>
                    <Button
                      small
                      icon="play"
                      text={tx('Open')}
                      disabled={busy}
                      loading={opening === String(r.id)}
                      aria-label={`Open the session of ${r.username} started ${time.dateTime(r.startedAt)}`}
                      onClick={() => onOpen(r)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        ))}
    </Card>
  );
}

export function ReplayScreen() {
  const viewer = useActorRef(replayViewerMachine);
  const ctx = useSelector(viewer, selectContext);
  const busy = useSelector(viewer, selectBusy);
  const timeline = useMemo(() => selectTimeline(ctx), [ctx]);
  const actors = useMemo(() => selectJournalActors(ctx), [ctx]);
  const [selected, setSelected] = useState(0); // visual: the step of the timeline shown
  const time = useTime();
  const index = Math.min(selected, Math.max(0, timeline.length - 1));
  const current = timeline[index];

  const load = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    void file.text().then((text) => {
      setSelected(0);
      viewer.send({ type: 'journal.load', name: file.name, text });
    });
  };
  const r = ctx.result;
  const mayViewRecordings = hasPrivilege(useSelector(useSystemActor('session'), selectHeldPrivileges), [PRIV.sessionReplays]);
  // a recorded session is opened by the openings actor; its text goes to the viewer
  const openings = useViewActor('recordingOpenings');
  const opening = useSelector(openings, (s: CommandSnapshot) => selectRunningCommand(s));
  const openFailed = useSelector(openings, (s: CommandSnapshot) => selectCommandError(s) !== null);
  const [asked, setAsked] = useState<RecordingSummary | null>(null); // visual: the recording last asked for, to name it
  useEffect(() => {
    const sub = openings.on('command.done', ({ result }) => {
      setSelected(0);
      viewer.send({ type: 'journal.load', name: `Recorded session of ${asked ? recordingName(asked) : ''}`, text: String(result) });
    });
    return () => sub.unsubscribe();
  }, [openings, viewer, asked]);
  const openRecorded = (rec: RecordingSummary) => {
    setAsked(rec);
    openings.send({ type: 'command.run', command: String(rec.id) });
  };
  const openError = openFailed && asked ? `The recorded session of ${recordingName(asked)} could not be opened.` : null;

  return (
    <div className="gh-replay-screen">
      {mayViewRecordings && <RecordedSessions busy={busy} opening={opening} onOpen={openRecorded} />}
      {openError && <Callout intent={Intent.WARNING}>{openError}</Callout>}
      <Card>
        <Button icon="export" text={tx('Export journal')} onClick={downloadJournal} />{' '}
        <Button
          icon="history"
          text={tx("Open this session's journal")}
          disabled={busy}
          onClick={() => {
            setSelected(0);
            viewer.send({ type: 'journal.load', name: 'this session', text: journalNdjson() });
          }}
        />{' '}
        <FileInput
          text={busy ? tx('Replaying…') : tx('Load journal…')}
          buttonText="Browse"
          disabled={busy}
          inputProps={{ accept: '.ndjson,.jsonl,.json,application/x-ndjson', 'aria-label': tx('Load journal') }}
          onInputChange={load}
        />
      </Card>

      {ctx.error && (
        <Callout intent={Intent.DANGER} title={tx('This journal cannot be replayed')} icon="error">
          <p>{say(ctx.error)}</p>
          <p className={Classes.TEXT_MUTED}>{r ? tx('Nothing was changed: {name} is still loaded.', { name: ctx.name ?? '' }) : tx('Nothing was changed.')}</p>
          <Button small text={tx('Dismiss')} onClick={() => viewer.send({ type: 'journal.errorDismissed' })} />
        </Callout>
      )}

      {!r ? (
        <NonIdealState
          icon="history"
          title={tx('No journal loaded')}
          description={tx("Load an exported journal (NDJSON), or open this session's, to step through it.")}
        />
      ) : (
        <>
          <Callout intent={r.ok ? Intent.SUCCESS : Intent.WARNING} title={ctx.name ?? undefined}>
            {r.ok
              ? tx('Replayed {n} steps: every state matches the journal.', { n: r.steps.length })
              : tx('The replay diverged at line {line}: {problem}', { line: r.line, problem: say(r.said) })}{' '}
            {tx('Recorded by Gatehouse {app}, started {at}.', { app: r.journal.header.app, at: time.dateTime(r.journal.header.startedAt, true) })}
            {r.warned.map((w) => (
              <div key={w.message} className={Classes.TEXT_MUTED}>
                {say(w)}
              </div>
            ))}
          </Callout>

          <Card>
            <label className={Classes.LABEL}>
              Machine{' '}
              <HTMLSelect
                value={ctx.filter ?? ''}
                onChange={(e) => {
                  setSelected(0);
                  viewer.send({ type: 'filter.set', actor: e.target.value || null });
                }}
                options={[{ value: '', label: tx('All machines') }, ...actors.map((a) => ({ value: a, label: a }))]}
              />
            </label>
            {timeline.length > 1 && (
              <Slider
                min={0}
                max={timeline.length - 1}
                stepSize={1}
                value={index}
                onChange={setSelected}
                labelStepSize={Math.max(1, Math.ceil(timeline.length / 10))}
                labelRenderer={(i) => String(timeline[i]?.line ?? '')}
              />
            )}
          </Card>

          <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }}>
            <Card style={{ flex: '0 0 40%', maxHeight: '61vh', overflow: 'auto' }}>
              <ul className={Classes.LIST_UNSTYLED} role="listbox" aria-label={tx('Journal steps')}>
                {timeline.map((s, i) => (
                  <li key={s.line} role="option" aria-selected={i === index}>
                    <Button minimal fill alignText="left" active={i === index} onClick={() => setSelected(i)}>
                      <StepLabel step={s} />
                    </Button>
                  </li>
                ))}
              </ul>
            </Card>
            {current && (
              <Card style={{ flex: 1 }}>
                <h4 className={Classes.HEADING}>
                  <StepLabel step={current} />
                </h4>
                <p className={Classes.TEXT_MUTED}>
                  seq {current.entry.seq} · {time.dateTime(current.entry.at, true)}
                  {current.entry.source ? ` · sent by ${current.entry.source.actor}` : ' · sent from outside the system'}
                </p>
                <h5 className={Classes.HEADING}>{tx('Event')}</h5>
                <pre className={Classes.CODE_BLOCK}>{json(current.entry.event)}</pre>
                <h5 className={Classes.HEADING}>Resulting state (journal)</h5>
                <pre className={Classes.CODE_BLOCK}>{json(current.entry.state)}</pre>
                {current.step && (
                  <>
                    <h5 className={Classes.HEADING}>Resulting state (replay)</h5>
                    <Callout intent={current.diverged ? Intent.DANGER : Intent.SUCCESS} icon={null}>
                      <pre className={Classes.CODE_BLOCK}>{json(current.step.replayed)}</pre>
                    </Callout>
                  </>
                )}
              </Card>
            )}
          </div>
        </>
      )}
    </div>
  );
}
