// Operator settings [0.3.7.0] (issue 11): the selected client's password policy, lockout and session limits, which
// the server enforces (server/auth). One form: checked with the contract's schema as typed, a refused value shown on
// its field, typed values kept, and a toast that says it is saved.
import { Button, Callout, Card, FormGroup, H5, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { FORM_ERROR } from 'final-form';
import { Form, useField } from 'react-final-form';
import { OperatorSettingsSchema, TOAST_MS, validate } from '../../../contract';
import { getOperatorSettings, saveOperatorSettings, type OperatorSettingsValues } from '../../api/endpoints';
import { ApiError } from '../../api/errors';
import { useRouteInfo } from '../../app/RouteContext';
import { routeDescription, routeTitle, tx, useLocale, useT } from '../../i18n';
import { violationText, labelled } from '../../i18n/violations';
import { notify } from '../../system/notices';
import { PageHeader } from '../../ui/PageHeader';
import { useTask } from '../../ui/useTask';

type Key = keyof OperatorSettingsValues;
const SECTIONS: { title: string; fields: { name: Key; label: string; help?: string }[] }[] = [
  { title: 'Passwords', fields: [
    { name: 'passwordMinLength', label: 'Minimum password length', help: '6 to 128 characters' },
    { name: 'passwordClasses', label: 'Kinds of characters required', help: '1 to 4 of: lower case, upper case, digits, symbols' },
    { name: 'passwordHistory', label: 'Earlier passwords that may not be reused', help: '0: none remembered' },
    { name: 'passwordExpiryDays', label: 'Password expiry (days)', help: '0: passwords do not expire' },
  ] },
  { title: 'Lockout', fields: [
    { name: 'lockoutAttempts', label: 'Wrong passwords before lockout' },
    { name: 'lockoutMinutes', label: 'Lockout (minutes)' },
  ] },
  { title: 'Sessions', fields: [
    { name: 'sessionLifetimeMinutes', label: 'Session lifetime (minutes)', help: 'At least 5' },
    { name: 'idleTimeoutMinutes', label: 'Idle timeout (minutes)', help: '0: no idle timeout' },
  ] },
];
const toNumbers = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, /^\s*-?\d+\s*$/.test(String(x ?? '')) ? Number(x) : x]));

function NumberField({ name, label, help }: { name: Key; label: string; help?: string }) {
  const locale = useLocale();
  const { input, meta } = useField(name, { subscription: { value: true, error: true, touched: true, submitError: true, dirtySinceLastSubmit: true } });
  const raw = (meta.touched && meta.error) || (!meta.dirtySinceLastSubmit && meta.submitError);
  const message = raw ? labelled(tx(label), violationText(String(raw), locale, (_k, e) => e), locale) : undefined;
  return (
    <FormGroup label={tx(label)} labelFor={`field-${name}`} helperText={message ?? (help ? tx(help) : undefined)} intent={message ? 'danger' : 'none'} className="gh-field">
      <InputGroup {...input} id={`field-${name}`} inputMode="numeric" intent={message ? 'danger' : 'none'} aria-invalid={!!message} autoComplete="off" />
    </FormGroup>
  );
}

export function OperatorSettingsScreen() {
  const { route } = useRouteInfo();
  const t = useT();
  useLocale();
  const loaded = useTask(getOperatorSettings, []);
  const header = <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)} />;
  if (loaded.status === 'error') return <div className="gh-page-wrap">{header}<NonIdealState icon="error" title={tx('The settings could not be loaded')} action={<Button icon="refresh" text={tx('Try again')} onClick={loaded.reload} />} /></div>;
  if (!loaded.output) return <div className="gh-page-wrap">{header}<NonIdealState icon={<Spinner />} title={t('loading')} /></div>;
  return (
    <div className="gh-page-wrap">
      {header}
      <div className="gh-page gh-form-page" data-testid="operator-settings">
        <Form<Record<string, unknown>>
          initialValues={Object.fromEntries(Object.entries(loaded.output).map(([k, v]) => [k, String(v)]))}
          validate={(values) => {
            const r = validate(toNumbers(values), OperatorSettingsSchema);
            return r.ok ? {} : Object.fromEntries(r.violations.map((v) => [v.field, v.message]));
          }}
          onSubmit={async (values) => {
            try {
              await saveOperatorSettings(toNumbers(values) as OperatorSettingsValues);
              notify({ intent: 'success', title: tx('Operator settings saved'), message: tx('They apply to every operator of this client from their next sign-in or request.'), timeoutMs: TOAST_MS });
              loaded.reload();
              return undefined;
            } catch (e) {
              if (e instanceof ApiError && e.violations.length) return Object.fromEntries(e.violations.map((v) => [v.field, v.message]));
              return { [FORM_ERROR]: e instanceof Error ? e.message : String(e) };
            }
          }}
          render={({ handleSubmit, submitting, submitError, form }) => (
            <form noValidate onSubmit={handleSubmit} aria-label={routeTitle(route)}>
              {submitError && <Callout intent="danger" icon="error" className="gh-form__error">{String(submitError)}</Callout>}
              {SECTIONS.map((s) => (
                <Card key={s.title} className="gh-form__section" compact>
                  <H5>{tx(s.title)}</H5>
                  <div className="gh-form__grid">{s.fields.map((f) => <NumberField key={f.name} {...f} />)}</div>
                </Card>
              ))}
              <div className="gh-form__actions">
                <Button type="submit" intent="primary" icon="floppy-disk" loading={submitting} data-testid="form-save">{t('save')}</Button>
                <Button icon="reset" onClick={() => form.reset()} disabled={submitting}>{t('reset')}</Button>
              </div>
            </form>
          )}
        />
      </div>
    </div>
  );
}
