// Operator settings [0.3.7.0] (issue 11): the selected client's password policy, lockout and session limits, which
// the server enforces (server/auth). One form: checked with the contract's schema as typed, a refused value shown on
// its field, typed values kept, and a toast that says it is saved.
import { Button, Callout, Card, FormGroup, H5, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';
import type { FormApi } from 'final-form';
import { useField } from 'react-final-form';
import { useSelector } from '@xstate/react';
import { OperatorSettingsSchema, TOAST_MS, validate, type Violation } from '../../../contract';
import type { ResourceFormSnapshot } from '../../../machines/resourceForm';
import type { OperatorSettingsValues } from '../../hooks/answers';
import { useRouteInfo } from '../../app/RouteContext';
import { useViewActor } from '../../hooks/useViewActor';
import { routeDescription, routeTitle, tx, useLocale, useT } from '../../i18n';
import { violationText, labelled } from '../../i18n/violations';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { FocusForm } from '../../ui/FocusForm';

type Key = keyof OperatorSettingsValues;
const SECTIONS: { title: string; fields: { name: Key; label: string; help?: string }[] }[] = [
  {
    title: 'Passwords',
    fields: [
      { name: 'passwordMinLength', label: 'Minimum password length', help: '6 to 128 characters' },
      { name: 'passwordClasses', label: 'Kinds of characters required', help: '1 to 4 of: lower case, upper case, digits, symbols' },
      { name: 'passwordHistory', label: 'Earlier passwords that may not be reused', help: '0: none remembered' },
      { name: 'passwordExpiryDays', label: 'Password expiry (days)', help: '0: passwords do not expire' },
    ],
  },
  {
    title: 'Lockout',
    fields: [
      { name: 'lockoutAttempts', label: 'Wrong passwords before lockout' },
      { name: 'lockoutMinutes', label: 'Lockout (minutes)' },
    ],
  },
  {
    title: 'Sessions',
    fields: [
      { name: 'sessionLifetimeMinutes', label: 'Session lifetime (minutes)', help: 'At least 5' },
      { name: 'idleTimeoutMinutes', label: 'Idle timeout (minutes)', help: '0: no idle timeout' },
    ],
  },
  {
    // issue 49: the client's rule; an account it covers that has no second factor is led to enrol at its next sign-in
    title: 'Two-step verification (MFA)',
    fields: [{ name: 'mfaRequired', label: 'Who must use two-step verification', help: '0: nobody required, 1: administrators, 2: every operator' }],
  },
];
/** The settings as the inputs hold them (text). */
const asTyped = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
const toNumbers = (v: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(v).map(([k, x]) => [k, /^\s*-?\d+\s*$/.test(String(x ?? '')) ? Number(x) : x]));

function NumberField({ name, label, help, refused }: { name: Key; label: string; help?: string; refused?: Violation }) {
  const locale = useLocale();
  const { input, meta } = useField(name, { subscription: { value: true, error: true, touched: true, dirtySinceLastSubmit: true } });
  // the violation itself (with its key and values when said with them, issue 48), the form's or the server's
  const raw = ((meta.touched && meta.error) || (!meta.dirtySinceLastSubmit && refused)) as Violation | undefined;
  const message = raw
    ? labelled(
        tx(label),
        violationText(raw, locale, (_k, e) => e),
        locale,
      )
    : undefined;
  return (
    <FormGroup
      label={tx(label)}
      labelFor={`field-${name}`}
      helperText={message ?? (help ? tx(help) : undefined)}
      intent={message ? 'danger' : 'none'}
      className="gh-field"
    >
      <InputGroup {...input} id={`field-${name}`} inputMode="numeric" intent={message ? 'danger' : 'none'} aria-invalid={!!message} autoComplete="off" />
    </FormGroup>
  );
}

const selValues = (s: ResourceFormSnapshot) => s.context.values;
const selFailed = (s: ResourceFormSnapshot) => s.matches('failed');
const selSaving = (s: ResourceFormSnapshot) => s.matches('saving');
const selViolations = (s: ResourceFormSnapshot) => s.context.violations;
const selError = (s: ResourceFormSnapshot) => s.context.error;

export function OperatorSettingsScreen() {
  const { route } = useRouteInfo();
  const t = useT();
  useLocale();
  // the settings form's actor (machines/resourceForm.ts): loads them, saves them, brings refused values back
  const settings = useViewActor('operatorSettingsForm', { input: { id: 1 } });
  const loaded = useSelector(settings, selValues) as Record<string, unknown> | null;
  const failed = useSelector(settings, selFailed);
  const saving = useSelector(settings, selSaving);
  const violations = useSelector(settings, selViolations);
  const submitError = useSelector(settings, selError);
  // latest: the open form's API, for the saved handler made once
  const formApi = useRef<FormApi<Record<string, unknown>> | null>(null);
  useEffect(() => {
    const sub = settings.on('form.saved', () => {
      notify({
        intent: 'success',
        title: tx('Operator settings saved'),
        message: tx('They apply to every operator of this client from their next sign-in or request.'),
        timeoutMs: TOAST_MS,
      });
      // what was saved (the form actor keeps the values it sent) is what the form now starts from (reset returns to it)
      const sent = settings.getSnapshot().context.sent as Record<string, unknown> | null;
      if (sent) formApi.current?.initialize(asTyped(sent));
    });
    return () => sub.unsubscribe();
  }, [settings]);
  const refused = Object.fromEntries(violations.map((v: Violation) => [v.field, v])) as Record<string, Violation>;
  const header = <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)} />;
  if (failed)
    return (
      <div className="gh-page-wrap">
        {header}
        <NonIdealState
          icon="error"
          title={tx('The settings could not be loaded')}
          action={<Button icon="refresh" text={tx('Try again')} onClick={() => settings.send({ type: 'form.reload' })} />}
        />
      </div>
    );
  if (!loaded)
    return (
      <div className="gh-page-wrap">
        {header}
        <NonIdealState icon={<Spinner />} title={t('loading')} />
      </div>
    );
  return (
    <div className="gh-page-wrap">
      {header}
      <div className="gh-page gh-form-page" data-testid="operator-settings">
        <FocusForm<Record<string, unknown>>
          violations={violations}
          initialValues={asTyped(loaded)}
          validate={(values) => {
            const r = validate(toNumbers(values), OperatorSettingsSchema);
            return r.ok ? {} : Object.fromEntries(r.violations.map((v) => [v.field, v]));
          }}
          onSubmit={(values) => settings.send({ type: 'form.submit', values: toNumbers(values) })}
          render={({ handleSubmit, form }) => {
            formApi.current = form;
            return (
              <form noValidate onSubmit={handleSubmit} aria-label={routeTitle(route)}>
                {submitError && (
                  <Callout intent="danger" icon="error" className="gh-form__error">
                    {String(submitError)}
                  </Callout>
                )}
                {SECTIONS.map((s) => (
                  <Card key={s.title} className="gh-form__section" compact>
                    <H5>{tx(s.title)}</H5>
                    <div className="gh-form__grid">
                      {s.fields.map((f) => (
                        <NumberField key={f.name} {...f} refused={refused[f.name]} />
                      ))}
                    </div>
                  </Card>
                ))}
                <div className="gh-form__actions">
                  <Button type="submit" intent="primary" icon="floppy-disk" loading={saving} data-testid="form-save">
                    {t('save')}
                  </Button>
                  <Button icon="reset" onClick={() => form.reset()} disabled={saving}>
                    {t('reset')}
                  </Button>
                </div>
              </form>
            );
          }}
        />
      </div>
    </div>
  );
}
