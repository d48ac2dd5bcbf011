// The inputs of a resource form, one per field kind (text, number, select, reference, date, date-time, image, file,
// switch…), a field shown only while another has a value, and repeated rows: each shows its own error, the client's
// rule first, else the server's violation of that field.
import { Button, FormGroup, HTMLSelect, InputGroup, Switch, TextArea } from '@blueprintjs/core';
import { useField, useForm, useFormState } from 'react-final-form';
import { getIn } from 'final-form';
import { useSelector } from '@xstate/react';
import { zoneLabel } from '../../contract';
import { selectPhonePlaceholder } from '../../machines/phone.selectors';
import { useDisplayZone } from '../ui/time';
import { DateField } from '../ui/DateField';
import { DateTimeField, dateTimeProblem, sayDateTimeProblem } from '../ui/DateTimeField';
import { useSystemActor } from '../hooks/useSystemActor';
import { tCat, tx, useLocale } from '../i18n';
import { labelled } from '../i18n/violations';
import { labelOfField, type FieldDef, type RepeatDef } from './consoleResource';
import { FileUpload, ImageUpload, PinBoard } from './PlanFields';
import { RefSelect, RefsPicker } from './RefPicker';
import { KEEP_SECRET, sayError, sayViolation, type ServerErrors } from './formMessages';
import type { FieldError } from './formValues';

export type Options = Record<'divisions' | 'timezones', { label: string; value: string }[]>;

export function FieldInput({
  def,
  name,
  serverErrors,
  options,
  compact,
}: {
  def: FieldDef;
  name: string;
  serverErrors: ServerErrors;
  options: Options;
  compact?: boolean;
}) {
  const kind = def.kind ?? 'text';
  const locale = useLocale(); // date pickers and their placeholder follow the console's language
  const phoneShape = useSelector(useSystemActor('session'), selectPhonePlaceholder); // one example number on every screen
  const zone = useDisplayZone(); // a date-time field is typed in the user's zone
  const { input, meta } = useField(name, {
    type: kind === 'switch' ? 'checkbox' : undefined,
    parse: def.upper ? (v: string) => (v ?? '').toUpperCase() : (v) => v,
    subscription: { value: true, error: true, touched: true, submitFailed: true, dirtySinceLastSubmit: true },
  });
  if (kind === 'hidden') return null;
  const clientError = meta.touched || meta.submitFailed ? (meta.error as FieldError | string | undefined) : undefined;
  const shownLabel = labelOfField(def);
  const serverError = !meta.dirtySinceLastSubmit && serverErrors[name] ? labelled(shownLabel, sayViolation(serverErrors[name], locale), locale) : undefined;
  // a date-time typed that is no moment says why in its own words (the schema would ask for ISO 8601)
  const typed = kind === 'datetime' && clientError ? dateTimeProblem(input.value, locale, zone) : null;
  const message = typed ? sayDateTimeProblem(typed, shownLabel, locale) : clientError ? sayError(clientError, def, locale) : serverError;
  const intent = message ? 'danger' : 'none';
  const id = `field-${name}`;
  const label = (
    <>
      {shownLabel}
      {def.required && (
        <span className="gh-required" aria-hidden>
          {' '}
          *
        </span>
      )}
    </>
  );
  const help = def.help ? (def.keys ? tCat(def.keys.help, def.help) : tx(def.help)) : undefined;
  const placeholder = def.phone
    ? phoneShape
    : def.placeholder === KEEP_SECRET
      ? tx('Unchanged: type a new one to replace it')
      : def.placeholder
        ? def.keys
          ? tCat(def.keys.placeholder, def.placeholder)
          : def.placeholder
        : undefined;
  let control;
  if (kind === 'switch') {
    control = <Switch {...input} id={id} checked={!!input.checked} label={shownLabel} />;
    return (
      <FormGroup className={`gh-field gh-field--switch${def.wide ? ' gh-field--wide' : ''}`} helperText={message} intent={intent}>
        {control}
      </FormGroup>
    );
  } else if (kind === 'select') {
    const opts = def.source ? options[def.source] : (def.options ?? []);
    control = (
      <HTMLSelect
        name={input.name}
        value={input.value ?? ''}
        onChange={input.onChange}
        onBlur={input.onBlur}
        onFocus={input.onFocus}
        id={id}
        fill
        aria-invalid={!!message}
        aria-required={def.required}
      >
        {(!def.required || def.source) && <option value="">{def.source ? tx('Choose…') : '—'}</option>}
        {opts.map((o) => (
          <option key={o.value} value={o.value}>
            {def.keys && !def.source ? tCat(def.keys.choice(o.value), o.label) : o.label}
          </option>
        ))}
      </HTMLSelect>
    );
  } else if (kind === 'ref') {
    control = (
      <RefSelect id={id} target={def.target!} value={input.value} onChange={input.onChange} onBlur={input.onBlur} required={def.required} invalid={!!message} />
    );
  } else if (kind === 'refs') {
    control = <RefsPicker id={id} target={def.target!} value={input.value} onChange={input.onChange} onBlur={input.onBlur} invalid={!!message} />;
  } else if (kind === 'image') {
    control = <ImageUpload id={id} value={input.value} onChange={input.onChange} maxBytes={def.maxBytes} invalid={!!message} />;
  } else if (kind === 'file') {
    control = <FileUpload id={id} value={input.value} onChange={input.onChange} maxBytes={def.maxBytes} invalid={!!message} />;
  } else if (kind === 'textarea') {
    control = <TextArea {...input} id={id} fill rows={3} intent={intent} aria-invalid={!!message} />;
  } else if (kind === 'datetime' || kind === 'date') {
    // the one date field ('28 Nov 2026') and the one date-time field ('28 Nov 2026 14:05', in the user's zone), as
    // every screen shows them, never the browser's own picker; they take the same props
    const Typed = kind === 'datetime' ? DateTimeField : DateField;
    control = (
      <Typed
        name={input.name}
        value={input.value}
        onChange={input.onChange}
        onBlur={input.onBlur}
        onFocus={input.onFocus}
        id={id}
        intent={intent}
        placeholder={placeholder}
        aria-invalid={!!message}
        aria-required={def.required}
      />
    );
  } else {
    control = (
      <InputGroup
        {...input}
        value={input.value ?? ''}
        id={id}
        type={def.writeOnly ? 'password' : kind === 'number' ? 'text' : kind === 'email' ? 'email' : 'text'}
        inputMode={kind === 'number' ? 'numeric' : undefined}
        intent={intent}
        placeholder={placeholder}
        aria-invalid={!!message}
        aria-required={def.required}
        className={def.upper ? 'gh-upper' : undefined}
        autoComplete="off"
      />
    );
  }
  return (
    <FormGroup
      label={label}
      labelFor={id}
      helperText={message ?? (compact ? undefined : (help ?? (kind === 'datetime' ? tx('In {zone}', { zone: zoneLabel(zone) }) : undefined)))}
      intent={intent}
      className={`gh-field${def.wide ? ' gh-field--wide' : ''}`}
    >
      {control}
    </FormGroup>
  );
}

/** A field shown only while another field of the form has one of `when.values` (it keeps its value when hidden). */
export function ShownWhen({ when, children }: { when: { field: string; values: readonly string[] }; children: React.ReactNode }) {
  const { input } = useField(when.field, { subscription: { value: true } });
  return when.values.includes(String(input.value ?? '')) ? <>{children}</> : null;
}

/** Repeated rows without final-form-arrays: rows are the array value; add/remove rewrite it. */
export function RepeatRows({ def, serverErrors, options }: { def: RepeatDef; serverErrors: ServerErrors; options: Options }) {
  const ff = useForm();
  const { values } = useFormState({ subscription: { values: true } });
  const rows = (getIn(values, def.repeat) as unknown[] | undefined) ?? [];
  const visible = def.fields.filter((f) => f.kind !== 'hidden');
  useLocale();
  const label = def.keys ? tCat(def.keys.label, def.label) : tx(def.label);
  const item = def.keys ? tCat(def.keys.itemLabel, def.itemLabel) : tx(def.itemLabel);
  return (
    <div className="gh-repeat gh-field--wide" data-testid={`repeat-${def.repeat}`}>
      {def.pins && typeof getIn(values, def.pins.image) === 'string' && getIn(values, def.pins.image) !== '' && (
        <PinBoard
          image={getIn(values, def.pins.image) as string}
          rows={rows as Record<string, unknown>[]}
          x={def.pins.x}
          y={def.pins.y}
          itemLabel={item}
          onPlace={(px, py) => ff.change(def.repeat, [...rows, { ...def.empty(), [def.pins!.x]: String(px), [def.pins!.y]: String(py) }])}
          onMove={(i, px, py) =>
            ff.batch(() => {
              ff.change(`${def.repeat}[${i}].${def.pins!.x}`, String(px));
              ff.change(`${def.repeat}[${i}].${def.pins!.y}`, String(py));
            })
          }
        />
      )}
      {rows.length === 0 && <p className="bp6-text-muted">{tx('No {what} yet.', { what: label.toLowerCase() })}</p>}
      {rows.map((_, i) => (
        <div className="gh-repeat__row" key={i} data-testid={`${def.repeat}-row`} role="group" aria-label={`${item} ${i + 1}`}>
          <span className="gh-repeat__index">{i + 1}</span>
          <div className="gh-repeat__fields" style={{ gridTemplateColumns: `repeat(${visible.length}, minmax(110px, 1fr))` }}>
            {def.fields.map((f) => (
              <FieldInput key={f.name} def={f} name={`${def.repeat}[${i}].${f.name}`} serverErrors={serverErrors} options={options} compact />
            ))}
          </div>
          <Button
            variant="minimal"
            intent="danger"
            icon="trash"
            aria-label={tx('Remove {what} {n}', { what: item.toLowerCase(), n: i + 1 })}
            onClick={() =>
              ff.change(
                def.repeat,
                rows.filter((__, j) => j !== i),
              )
            }
          />
        </div>
      ))}
      <Button icon="add" variant="outlined" onClick={() => ff.change(def.repeat, [...rows, def.empty()])} data-testid={`add-${def.repeat}`}>
        {tx('Add {what}', { what: item.toLowerCase() })}
      </Button>
    </div>
  );
}
