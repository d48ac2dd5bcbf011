// What the threat levels screen and the doors screen's threat panel share: the words and colour of a level's mode,
// the toast of a command's answer, the minutes field and the question asked before setting or lowering a level.
import { useEffect } from 'react';
import { Alert, FormGroup, InputGroup } from '@blueprintjs/core';
import type { ThreatLevelActor } from '../../../machines/threatLevel';
import { tx } from '../../i18n';
import { notify } from '../../hooks/console';

const MODE_TEXT: Record<string, string> = { card: 'Doors as they are', 'card-pin': 'Card and PIN at every door', locked: 'Doors held locked' };
export const modeText = (mode: string) => tx(MODE_TEXT[mode] ?? mode);
export const intentOf = (mode: string | undefined) => (mode === 'locked' ? 'danger' : mode === 'card-pin' ? 'warning' : 'primary');

/** Each command's answer in a toast (and `then`, e.g. closing the form that asked). */
export function useThreatAnswers(threat: ThreatLevelActor, then?: () => void) {
  useEffect(() => {
    const sub = threat.on('threat.answered', ({ state: answer }) => {
      notify(
        answer.level
          ? {
              intent: intentOf(answer.level.mode),
              title: tx('Threat level'),
              message: tx('{name} is in force: {what}.', { name: answer.level.name, what: modeText(answer.level.mode) }),
              timeoutMs: 6000,
            }
          : { intent: 'success', title: tx('Threat level'), message: tx('No threat level is in force now.'), timeoutMs: 6000 },
      );
      // issue 47: doors of a Gatehouse Edge controller that is offline hold the level from when it reconnects: named
      if (answer.level?.mode === 'locked' && answer.unreached?.length)
        notify({
          intent: 'warning',
          title: tx('Not reached yet'),
          message: `${tx('{n} doors are on an edge controller that is offline: they are held locked when it reconnects.', { n: answer.unreached.length })} ${answer.unreached
            .map((u) => u.doorName ?? `#${u.doorId}`)
            .join(', ')}`,
          timeoutMs: 10_000,
        });
      then?.();
    });
    return () => sub.unsubscribe();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [threat]);
}

/** Typed minutes: empty (until lowered) or a whole number from 1 to 10080. */
export const minutesAreBad = (typed: string) => typed !== '' && !(/^\d{1,5}$/.test(typed) && Number(typed) >= 1 && Number(typed) <= 10_080);

export function ThreatMinutes({ id, value, onChange }: { id: string; value: string; onChange: (v: string) => void }) {
  const bad = minutesAreBad(value.trim());
  return (
    <FormGroup
      label={tx('For (minutes)')}
      labelFor={id}
      intent={bad ? 'danger' : 'none'}
      helperText={bad ? tx('A whole number of minutes from 1 to 10080') : tx('Empty: until lowered')}
    >
      <InputGroup
        id={id}
        value={value}
        inputMode="numeric"
        intent={bad ? 'danger' : 'none'}
        onChange={(e) => onChange(e.currentTarget.value)}
        data-testid={id}
      />
    </FormGroup>
  );
}

/** The question before a level is set (`chosen` in force for `where`) or lowered. */
export function ThreatConfirm({
  asking,
  chosen,
  where,
  testId,
  onCancel,
  onConfirm,
}: {
  asking: 'set' | 'lower' | null;
  chosen: { name: string; mode: string } | null;
  where: string;
  testId: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Alert
      isOpen={asking !== null}
      intent={asking === 'set' ? intentOf(chosen?.mode) : 'success'}
      icon="shield"
      canEscapeKeyCancel
      cancelButtonText={tx('Cancel')}
      confirmButtonText={asking === 'set' ? tx('Set level') : tx('Lower to none')}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <div data-testid={testId}>
        {asking === 'set' && chosen ? (
          <p>{tx('Put {name} in force for {where}? {what}.', { name: chosen.name, where, what: modeText(chosen.mode) })}</p>
        ) : (
          <p>{tx('Lower the threat level? The doors go back to what they do without one.')}</p>
        )}
      </div>
    </Alert>
  );
}
