// A small validated form for the password flows (react-final-form + a contract schema + a form actor).
import type { ReactNode } from 'react';
import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { Field } from 'react-final-form';
import { useSelector } from '@xstate/react';
import { useViewActor } from '../../hooks/useViewActor';
import type { Struct } from 'superstruct';
import { validate, type Violation } from '../../../contract';
import type { resourceFormMachine } from '../../../machines/resourceForm';
import type { ActorRefFrom } from 'xstate';
import type { LogicIdOf } from '../../hooks/useViewActor';
import { sayViolation } from '../../resources/formMessages';
import { say, tx, useLocale } from '../../i18n';
import { labelled } from '../../i18n/violations';
import { FocusForm } from '../../ui/FocusForm';

export interface PwField {
  name: string;
  label: string;
  type?: 'text' | 'password';
  autoComplete?: string;
}

interface Props {
  /** The saving logic's id (src/system/logic.ts): the password change, reset or operator's new password. */
  machine: LogicIdOf<typeof resourceFormMachine>;
  schema: Struct<any, any>;
  fields: PwField[];
  fixed?: Record<string, string>;
  submitText: string;
  done: ReactNode;
  confirm?: { name: string; label: string; of: string };
}

export function PasswordForm({ machine, schema, fields, fixed = {}, submitText, done, confirm }: Props) {
  const actor = useViewActor(machine, { input: {} }) as unknown as ActorRefFrom<typeof resourceFormMachine>;
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const saved = useSelector(actor, (s) => s.matches('saved'));
  const error = useSelector(actor, (s) => s.context.error);
  const violations = useSelector(actor, (s) => s.context.violations);
  const all = confirm ? [...fields, { name: confirm.name, label: confirm.label, type: 'password' as const, autoComplete: 'new-password' }] : fields;
  const locale = useLocale();
  // a violation on its field in the operator's language: the field's label, then what is wrong, said by the
  // violation's key when it has one (issue 48: a password's length, classes, history)
  const onField = (v: Violation) => labelled(all.find((f) => f.name === v.field)?.label ?? v.field, sayViolation(v, locale), locale);
  // a refused value shows on its field; what names no field of this form is said above them
  const unplaced = violations.filter((v) => !all.some((f) => f.name === v.field));
  if (saved)
    return (
      <Callout intent="success" icon="tick-circle" data-testid="password-done">
        {done}
      </Callout>
    );
  return (
    <FocusForm
      violations={violations}
      onSubmit={(values) => {
        const body = { ...fixed, ...Object.fromEntries(fields.map((f) => [f.name, values[f.name] ?? ''])) };
        actor.send({ type: 'form.submit', values: body });
      }}
      validate={(values) => {
        const r = validate({ ...fixed, ...Object.fromEntries(fields.map((f) => [f.name, values[f.name] || undefined])) }, schema);
        const errors: Record<string, string> = {};
        if (!r.ok) for (const v of r.violations) if (!(v.field in fixed)) errors[v.field] ??= onField(v);
        if (confirm && values[confirm.name] !== values[confirm.of]) errors[confirm.name] = tx('The passwords do not match');
        return errors;
      }}
      render={({ handleSubmit }) => (
        <form
          onSubmit={(e) => {
            void handleSubmit(e);
          }}
          noValidate
        >
          {error && (
            <Callout intent="danger" icon="error" className="gh-signin__callout">
              {say(error)}
            </Callout>
          )}
          {unplaced.length > 0 && (
            <Callout intent="danger" icon="error" className="gh-signin__callout">
              {unplaced.map(onField).join('; ')}
            </Callout>
          )}
          {all.map((f) => (
            <Field
              key={f.name}
              name={f.name}
              subscription={{ value: true, error: true, touched: true, submitFailed: true, dirtySinceLastSubmit: true }}
              render={({ input, meta }) => {
                const refused = !meta.dirtySinceLastSubmit ? violations.find((v) => v.field === f.name) : undefined;
                const msg = (meta.touched || meta.submitFailed) && meta.error ? String(meta.error) : refused ? onField(refused) : undefined;
                return (
                  <FormGroup label={f.label} labelFor={`pw-${f.name}`} helperText={msg} intent={msg ? 'danger' : 'none'}>
                    <InputGroup
                      {...input}
                      id={`pw-${f.name}`}
                      type={f.type ?? 'text'}
                      autoComplete={f.autoComplete}
                      intent={msg ? 'danger' : 'none'}
                      aria-invalid={!!msg}
                    />
                  </FormGroup>
                );
              }}
            />
          ))}
          <Button type="submit" intent="primary" fill loading={busy} text={submitText} />
        </form>
      )}
    />
  );
}
