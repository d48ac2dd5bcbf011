// "Preview access" on the forms of access groups, schedules and special dates (declared `screens.whatIf`, issue 12):
// the form's values as they are now go to the server, which answers who would gain and who would lose which doors
// over the next 7 days if they were saved, counted and listed (hours open a week, before → after). Nothing is saved.
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useForm } from 'react-final-form';
import { selectReadBusy, selectReadFailed, type ReadingSnapshot } from '../../machines/reading';
import type { AccessPreview, AccessPreviewAnswer } from '../hooks/answers';
import { useViewActor } from '../hooks/useViewActor';
import { say, tx, useLocale } from '../i18n';
import type { Resource } from './consoleResource';
import { toBody } from './formValues';
import './whatIf.css';

/** Rows of each list shown; the counts above them are complete. */
const SHOWN = 100;
type Pair = AccessPreview['gains'][number];

export function WhatIfButton({ resource, id }: { resource: Resource<any>; id: number | undefined }) {
  const ff = useForm();
  const [open, setOpen] = useState(false); // visual: the dialog is open
  // a reading actor, a child of the system: nothing is read until asked, then the form's values as they are now
  const preview = useViewActor('accessPreviewLogic', { input: null });
  const busy = useSelector(preview, selectReadBusy);
  const failed = useSelector(preview, (s: ReadingSnapshot) => (selectReadFailed(s) ? s.context.error : null));
  const got = useSelector(preview, (s: ReadingSnapshot) => s.context.output as AccessPreviewAnswer | null);
  const state = busy
    ? { status: 'loading' as const }
    : failed !== null
      ? { status: 'failed' as const, message: failed, fields: [] as string[] }
      : got && 'refused' in got
        ? { status: 'failed' as const, message: '', fields: got.refused }
        : got
          ? { status: 'done' as const, answer: got.answer }
          : null;
  const ask = () => {
    setOpen(true);
    const values = toBody(ff.getState().values as Record<string, unknown>, resource.form);
    preview.send({ type: 'read.restart', input: { resource: resource.name, id: id ?? null, values } });
  };
  return (
    <>
      <Button icon="eye-open" variant="outlined" onClick={ask} data-testid="what-if">
        {tx('Preview access')}
      </Button>
      <Dialog isOpen={open} onClose={() => setOpen(false)} title={tx('Who gains and who loses access')} icon="people" className="gh-whatif">
        <div data-testid="what-if-dialog">
          <DialogBody>
            {state?.status === 'loading' && <NonIdealState icon={<Spinner />} title={tx('Working out the next 7 days…')} />}
            {state?.status === 'failed' && (
              <Callout intent="danger" icon="error" data-testid="what-if-error">
                {state.fields.length ? (
                  <>
                    {tx('Fix the form first:')} {state.fields.join('; ')}
                  </>
                ) : (
                  say(state.message)
                )}
              </Callout>
            )}
            {state?.status === 'done' && <PreviewAnswer answer={state.answer} />}
          </DialogBody>
          <DialogFooter
            actions={
              <Button onClick={() => setOpen(false)} data-testid="what-if-close">
                {tx('Close')}
              </Button>
            }
          >
            <span className="bp6-text-muted">{tx('Nothing is saved by a preview.')}</span>
          </DialogFooter>
        </div>
      </Dialog>
    </>
  );
}

/** "1 person" / "232 people", "1 door" / "3 doors": people and doors counted apart (issue 29). */
function useCounts() {
  const plural = new Intl.PluralRules(useLocale());
  const one = (n: number) => plural.select(n) === 'one';
  return {
    people: (n: number) => (one(n) ? tx('{n} person', { n }) : tx('{n} people', { n })),
    doors: (n: number) => (one(n) ? tx('{n} door', { n }) : tx('{n} doors', { n })),
  };
}

function PreviewAnswer({ answer }: { answer: AccessPreview }) {
  const { people, doors } = useCounts();
  if (answer.gained === 0 && answer.lost === 0) {
    return (
      <NonIdealState
        icon="tick-circle"
        title={tx('Nobody gains or loses access')}
        description={tx('Over the next {days} days every door stays open to the same people at the same hours.', { days: answer.days })}
      />
    );
  }
  return (
    <div data-testid="what-if-answer">
      <p>
        {tx('Over the next {days} days:', { days: answer.days })}{' '}
        <Tag intent="success" minimal round data-testid="what-if-gains">
          {tx('Gain access: {people}, {doors}', { people: people(answer.identitiesGaining), doors: doors(answer.doorsGaining) })}
        </Tag>{' '}
        <Tag intent="danger" minimal round data-testid="what-if-losses">
          {tx('Lose access: {people}, {doors}', { people: people(answer.identitiesLosing), doors: doors(answer.doorsLosing) })}
        </Tag>
      </p>
      <PairTable title={tx('Gain')} pairs={answer.gains} total={answer.gained} testId="what-if-gain" />
      <PairTable title={tx('Lose')} pairs={answer.losses} total={answer.lost} testId="what-if-loss" />
    </div>
  );
}

function PairTable({ title, pairs, total, testId }: { title: string; pairs: readonly Pair[]; total: number; testId: string }) {
  if (total === 0) return null;
  return (
    <>
      <h6 className="bp6-heading">{title}</h6>
      <div className="gh-whatif__table">
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{tx('Identity')}</th>
              <th>{tx('Door')}</th>
              <th>{tx('Hours open this week')}</th>
            </tr>
          </thead>
          <tbody>
            {pairs.slice(0, SHOWN).map((p) => (
              <tr key={`${p.identityId}-${p.doorId}`} data-testid={testId}>
                <td>{p.identityName}</td>
                <td>{p.doorName}</td>
                <td>
                  {p.hoursBefore} → {p.hoursAfter}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
      {total > Math.min(SHOWN, pairs.length) && <p className="bp6-text-muted">{tx('and {n} more', { n: total - Math.min(SHOWN, pairs.length) })}</p>}
    </>
  );
}
