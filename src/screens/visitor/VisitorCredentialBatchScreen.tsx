// Batch add visitor credentials [1.2.4]: a box of new cards numbered in a row. The form says which numbers it will
// add as they are typed; the server adds all of them or none (a number already in use is named on "First number").
// The request is one command (visitorCredentialBatchCommands); a refused batch's violations come back on the fields
// with what was typed kept; a saved one says what was added and goes back to the list.
import { useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Callout, Card, FormGroup, HTMLSelect, InputGroup, NumericInput } from '@blueprintjs/core';
import { Field } from 'react-final-form';
import { useSelector } from '@xstate/react';
import {
  TOAST_MS,
  VISITOR_CREDENTIAL_BATCH_MAX,
  VISITOR_CREDENTIAL_KINDS,
  batchNumbers,
  validate,
  VisitorCredentialBatch,
  type Violation,
} from '../../../contract';
import { selectCommandError, selectCommandResult, selectRunningCommand } from '../../../machines/command';
import { useViewActor } from '../../hooks/useViewActor';
import { say as saySaid, tCat, tx, useLocale } from '../../i18n';
import { labelled, violationText } from '../../i18n/violations';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { FocusForm } from '../../ui/FocusForm';

interface Values {
  prefix: string;
  first: number;
  count: number;
  digits: number;
  kind: string;
}
const START: Values = { prefix: 'V-', first: 1, count: 50, digits: 4, kind: 'card' };
const LIST = '/visitor/credentials';
const LABELS: Record<keyof Values, string> = { prefix: 'Prefix', first: 'First number', count: 'How many', digits: 'Digits', kind: 'Kind' };

/** A field's violation: its English, with its key and values when said with them (issue 48: said by the key). */
type Said = Pick<Violation, 'message' | 'code' | 'values'>;
/** What the typed values would add, or why they cannot (field → violation), checked as the server checks them. */
function check(v: Values): { numbers: string[] | null; errors: Partial<Record<keyof Values, Said>> } {
  const r = validate({ ...v, prefix: (v.prefix ?? '').toUpperCase() }, VisitorCredentialBatch);
  if (!r.ok) return { numbers: null, errors: Object.fromEntries(r.violations.map((x: Violation) => [x.field, x])) };
  const made = batchNumbers(r.value);
  return 'field' in made ? { numbers: null, errors: { [made.field]: made } } : { numbers: made.numbers, errors: {} };
}

export function VisitorCredentialBatchScreen() {
  const locale = useLocale();
  const navigate = useNavigate();
  const commands = useViewActor('visitorCredentialBatchCommands');
  const running = useSelector(commands, selectRunningCommand) !== null;
  const failure = useSelector(commands, selectCommandError);
  const result = useSelector(commands, selectCommandResult) as {
    added?: { added: number; firstNumber: string; lastNumber: string };
    violations?: Violation[];
  } | null;
  const serverErrors = useMemo(() => Object.fromEntries((result?.violations ?? []).map((v) => [v.field, v])) as Partial<Record<keyof Values, Said>>, [result]);
  useEffect(() => {
    const sub = commands.on('command.done', (e) => {
      const added = (e.result as { added?: { added: number; firstNumber: string; lastNumber: string } }).added;
      if (!added) return;
      notify({
        intent: 'success',
        title: tx('Visitor credentials added'),
        message: tx('{n} added: {first} to {last}.', { n: added.added, first: added.firstNumber, last: added.lastNumber }),
        timeoutMs: TOAST_MS,
      });
      navigate(LIST);
    });
    return () => sub.unsubscribe();
  }, [commands, navigate]);
  // a message names its field ('How many must be a positive whole number'), as on every other form
  const say = (k: keyof Values, m: Said | undefined) =>
    m
      ? labelled(
          tx(LABELS[k]),
          violationText(m, locale, (key: string, e: string) => tCat(key, e, locale)),
          locale,
        )
      : undefined;

  return (
    <div className="gh-page-wrap gh-form-page" data-testid="visitor-credential-batch">
      <PageHeader
        title={tx('Batch add visitor credentials')}
        icon="credit-card"
        description={tx('Add a box of cards or QR codes numbered in a row, all at once.')}
      />
      <FocusForm<Values>
        violations={result?.violations}
        initialValues={START}
        validate={(v) => check(v).errors}
        onSubmit={(v) => {
          commands.send({ type: 'command.run', command: 'batch-add', input: { ...v, prefix: v.prefix.toUpperCase() } });
        }}
        render={({ handleSubmit, values, submitFailed, dirtyFieldsSinceLastSubmit }) => {
          const { numbers, errors } = check(values);
          const error = (k: keyof Values, touched: boolean) =>
            (touched || submitFailed ? say(k, errors[k]) : undefined) ?? (dirtyFieldsSinceLastSubmit?.[k] ? undefined : say(k, serverErrors[k]));
          const numberField = (k: 'first' | 'count' | 'digits', min: number, max: number, help?: string) => (
            <Field<number> name={k} key={k}>
              {({ input, meta }) => {
                const e = error(k, !!meta.touched);
                return (
                  <FormGroup label={tx(LABELS[k])} labelFor={`field-${k}`} intent={e ? 'danger' : 'none'} helperText={e ?? help}>
                    {/* no stepper buttons: Blueprint points their aria-controls at an id of its own, not at this input's (the
                        arrow keys still step) */}
                    <NumericInput
                      id={`field-${k}`}
                      fill
                      min={min}
                      max={max}
                      minorStepSize={null}
                      allowNumericCharactersOnly
                      intent={e ? 'danger' : 'none'}
                      buttonPosition="none"
                      value={Number.isFinite(input.value) ? input.value : ''}
                      onValueChange={(n) => input.onChange(Number.isFinite(n) ? n : NaN)}
                      onBlur={input.onBlur}
                    />
                  </FormGroup>
                );
              }}
            </Field>
          );
          return (
            <form noValidate onSubmit={handleSubmit} aria-label={tx('Batch add visitor credentials')}>
              {failure && (
                <Callout intent="danger" icon="error" className="gh-form__error" data-testid="form-error">
                  {saySaid(failure)}
                </Callout>
              )}
              <Card className="gh-form__section" compact>
                <div className="gh-form__grid">
                  <Field<string> name="prefix">
                    {({ input, meta }) => {
                      const e = error('prefix', !!meta.touched);
                      return (
                        <FormGroup
                          label={tx(LABELS.prefix)}
                          labelFor="field-prefix"
                          intent={e ? 'danger' : 'none'}
                          helperText={e ?? tx('Capital letters, digits and -, up to 10')}
                        >
                          <InputGroup
                            id="field-prefix"
                            {...input}
                            value={input.value}
                            onChange={(ev) => input.onChange(ev.target.value.toUpperCase())}
                            intent={e ? 'danger' : 'none'}
                          />
                        </FormGroup>
                      );
                    }}
                  </Field>
                  <Field<string> name="kind">
                    {({ input }) => (
                      <FormGroup label={tx(LABELS.kind)} labelFor="field-kind">
                        <HTMLSelect
                          id="field-kind"
                          fill
                          value={input.value}
                          onChange={(ev) => input.onChange(ev.target.value)}
                          options={VISITOR_CREDENTIAL_KINDS.map((k) => ({
                            value: k.value,
                            label: tCat(`resource.visitorCredentials.choice.kind.${k.value}`, k.label, locale),
                          }))}
                        />
                      </FormGroup>
                    )}
                  </Field>
                  {numberField('first', 0, 999_999_999)}
                  {numberField('count', 1, VISITOR_CREDENTIAL_BATCH_MAX, tx('At most {n} at once', { n: VISITOR_CREDENTIAL_BATCH_MAX }))}
                  {numberField('digits', 1, 10, tx('Zeros fill each number to this many digits'))}
                </div>
                <p data-testid="batch-preview" className="bp6-text-muted">
                  {numbers
                    ? tx('Adds {n}: {first} to {last}, each available.', { n: numbers.length, first: numbers[0], last: numbers[numbers.length - 1] })
                    : tx('Nothing to add until the values above are right.')}
                </p>
              </Card>
              <div className="gh-form__actions">
                <Button type="submit" intent="primary" icon="add" loading={running} disabled={running} data-testid="form-save">
                  {tx('Add them')}
                </Button>
                <Button variant="minimal" onClick={() => navigate(LIST)} data-testid="form-cancel">
                  {tx('Cancel')}
                </Button>
              </div>
            </form>
          );
        }}
      />
    </div>
  );
}
