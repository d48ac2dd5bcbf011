// Issue 49: the Profile's two-step verification (docs/MFA.md): which factors the account has, and every change of
// them made by the person: an authenticator app added (its QR code, then a first code) or removed, a passkey added
// (the browser's WebAuthn ceremony) or removed, new recovery codes. One dialog for all of them: it says what the change
// does, asks the person to confirm it is them (a current code of the authenticator app, or the password), then shows
// what the answer shows once (the QR code, the recovery codes) until the person says they kept it.
import { useEffect, useState } from 'react';
import { Button, Callout, Card, Classes, Dialog, DialogBody, DialogFooter, FormGroup, H5, H6, InputGroup, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { MfaStatus, Violation } from '../../../contract';
import { useViewActor } from '../../hooks/useViewActor';
import { sayViolation } from '../../resources/formMessages';
import type { MfaChange, MfaChangeValues } from '../../../contract';
import { say, tx, useLocale } from '../../i18n';
import { labelled } from '../../i18n/violations';
import './profileMfa.css';

/** The change the dialog is making: its title, what it does, its button. */
interface Doing {
  change: MfaChange;
  id?: string;
  title: string;
  warning: string;
  submit: string;
}

export function ProfileMfaCard() {
  const locale = useLocale();
  const status = useViewActor('mfaStatusReading');
  const factors = useSelector(status, (s) => s.context.output as MfaStatus | null);
  const form = useViewActor('mfaChangeForm', { input: {} });
  // visual: the change asked for, and a secret its answer shows once to be copied (gone when the dialog closes; kept out
  // of the actor so the journal never holds it)
  const [doing, setDoing] = useState<Doing | null>(null);
  const [shown, setShown] = useState<Record<string, string> | null>(null);
  useEffect(() => {
    const sub = form.on('form.saved', (e) => {
      status.send({ type: 'read.reload' });
      const s = e.shown ?? {};
      if (s.qr || s.recoveryCodes) setShown(s);
      else close();
    });
    return () => sub.unsubscribe();
  }, [form, status]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!factors) return null;
  const hasFactor = factors.totp || factors.passkeys.length > 0;
  const open = (d: Doing) => {
    form.send({ type: 'form.reset' });
    setShown(null);
    setDoing(d);
  };
  function close() {
    setDoing(null);
    setShown(null);
    form.send({ type: 'form.reset' });
  }
  const others = tx('Your other sessions end.');
  const date = (iso: string) => new Date(iso).toLocaleDateString(locale);

  return (
    <Card className="gh-form__section gh-mfa-card" data-testid="profile-mfa">
      <H5>{tx('Two-step verification')}</H5>
      {factors.required && (
        <Callout intent="primary" icon="shield" className="gh-mfa-card__rule">
          {tx('Your client requires two-step verification for your account: one factor must stay.')}
        </Callout>
      )}
      {!hasFactor && <p className={Classes.TEXT_MUTED}>{tx('Two-step verification is off for your account.')}</p>}

      <H6>{tx('Authenticator app')}</H6>
      <div className="gh-mfa-card__row" data-testid="mfa-app">
        {factors.totp ? (
          <>
            <span>
              <Tag intent="success" minimal>
                {tx('On')}
              </Tag>{' '}
              {tx('An authenticator app asks for a code at each sign-in.')}
            </span>
            <Button
              variant="minimal"
              intent="danger"
              text={tx('Remove…')}
              aria-label={tx('Remove the authenticator app')}
              onClick={() => open({ change: 'remove-totp', title: tx('Remove the authenticator app'), warning: others, submit: tx('Remove') })}
              data-testid="remove-totp"
            />
          </>
        ) : (
          <Button
            icon="mobile-phone"
            text={tx('Add an authenticator app…')}
            onClick={() => open({ change: 'add-totp', title: tx('Add an authenticator app'), warning: others, submit: tx('Continue') })}
            data-testid="add-totp"
          />
        )}
      </div>

      <H6>{tx('Passkeys')}</H6>
      <ul className="gh-mfa-card__keys" data-testid="mfa-passkeys">
        {factors.passkeys.map((k) => (
          <li key={k.id} className="gh-mfa-card__row">
            <span>
              <strong>{k.name}</strong>{' '}
              <span className={Classes.TEXT_MUTED}>
                {tx('added {date}', { date: date(k.createdAt) })}
                {k.lastUsedAt ? ` · ${tx('last used {date}', { date: date(k.lastUsedAt) })}` : ''}
              </span>
            </span>
            <Button
              variant="minimal"
              intent="danger"
              text={tx('Remove…')}
              aria-label={tx('Remove the passkey {name}', { name: k.name })}
              onClick={() =>
                open({ change: 'remove-passkey', id: k.id, title: tx('Remove the passkey {name}', { name: k.name }), warning: others, submit: tx('Remove') })
              }
            />
          </li>
        ))}
      </ul>
      <Button
        icon="key"
        text={tx('Add a passkey…')}
        onClick={() => open({ change: 'add-passkey', title: tx('Add a passkey'), warning: others, submit: tx('Continue') })}
        data-testid="add-passkey"
      />

      {hasFactor && (
        <>
          <H6>{tx('Recovery codes')}</H6>
          <div className="gh-mfa-card__row">
            <span data-testid="recovery-codes-left">{tx('Recovery codes left: {count}', { count: factors.recoveryCodesLeft })}</span>
            <Button
              icon="refresh"
              text={tx('New recovery codes…')}
              onClick={() =>
                open({
                  change: 'recovery-codes',
                  title: tx('New recovery codes'),
                  warning: tx('The recovery codes you have now stop working, and your other sessions end.'),
                  submit: tx('Make new codes'),
                })
              }
              data-testid="new-recovery-codes"
            />
          </div>
        </>
      )}
      <Dialog isOpen={!!doing} onClose={close} title={shown?.recoveryCodes ? tx('Keep your recovery codes') : doing?.title} canOutsideClickClose={false}>
        {doing && <ChangeDialog doing={doing} shown={shown} hasApp={factors.totp} form={form} close={close} />}
      </Dialog>
    </Card>
  );
}

/** The factor a violation names, in words ("Authenticator app is the only second factor, and the client requires one"). */
const FACTOR_LABELS: Record<string, string> = { totp: 'Authenticator app', passkey: 'Passkey', response: 'Passkey', mfa: 'Two-step verification' };

type ChangeForm = ReturnType<typeof useViewActor<'mfaChangeForm'>>;

/** The dialog's body: the confirmation asked, then the QR code of a new app, then the recovery codes. */
function ChangeDialog({
  doing,
  shown,
  hasApp,
  form,
  close,
}: {
  doing: Doing;
  shown: Record<string, string> | null;
  hasApp: boolean;
  form: ChangeForm;
  close: () => void;
}) {
  const locale = useLocale();
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  const violations = useSelector(form, (s) => s.context.violations) as Violation[];
  const error = useSelector(form, (s) => s.context.error);
  // visual: what is typed, until it is sent
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const problem = (field: string, label: string) => {
    const v = violations.find((x) => x.field === field);
    return v ? labelled(label, sayViolation(v, locale), locale) : undefined;
  };
  const send = (values: MfaChangeValues) => form.send({ type: 'form.submit', values });
  const field = (id: string, label: string, value: string, set: (v: string) => void, more: Partial<React.ComponentProps<typeof InputGroup>>, help?: string) => {
    // a violation names the field as the server does ("Your password is not the current password"), whatever its label
    const p = problem(id, id === 'password' ? tx('Your password') : label);
    return (
      <FormGroup label={label} labelFor={`mfa-${id}`} helperText={p ?? help} intent={p ? 'danger' : 'none'}>
        <InputGroup
          id={`mfa-${id}`}
          name={id}
          value={value}
          intent={p ? 'danger' : 'none'}
          aria-invalid={!!p}
          onChange={(e) => set(e.currentTarget.value)}
          {...more}
        />
      </FormGroup>
    );
  };
  const placed = new Set(['code', 'password', 'name']);
  const failure = (error || violations.some((v) => !placed.has(v.field))) && (
    <Callout intent="danger" icon="error" role="alert">
      {[
        error ? say(error) : null,
        ...violations
          .filter((v) => !placed.has(v.field))
          .map((v) => labelled(FACTOR_LABELS[v.field] ? tx(FACTOR_LABELS[v.field]) : v.field, sayViolation(v, locale), locale)),
      ]
        .filter(Boolean)
        .join('; ')}
    </Callout>
  );

  if (shown?.recoveryCodes)
    return (
      <>
        <DialogBody>
          <p>{tx('Each code signs you in once if you lose your authenticator. They are shown only now: print them or keep them in a password manager.')}</p>
          <ol className="gh-mfa__codes" data-testid="new-recovery-code-list">
            {shown.recoveryCodes.split('\n').map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ol>
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" text={tx('I have kept them')} onClick={close} data-testid="recovery-codes-kept" />} />
      </>
    );
  if (shown?.qr)
    return (
      <form onSubmit={(e) => (e.preventDefault(), send({ change: 'confirm-totp', code: code.trim() }))} noValidate>
        <DialogBody>
          <p>{tx('Scan the code with the app (or type the key), then enter the six digits it shows.')}</p>
          <img className="gh-mfa__qr" alt={tx('QR code to scan with the authenticator app')} src={`data:image/svg+xml;utf8,${encodeURIComponent(shown.qr)}`} />
          <p className="gh-mfa__secret">
            {tx('Key')}: <code data-testid="mfa-secret">{shown.secret}</code>
          </p>
          {failure}
          {field('code', tx('Code from the app'), code, setCode, { autoComplete: 'one-time-code', inputMode: 'numeric', autoFocus: true }, tx('Six digits'))}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={tx('Cancel')} onClick={close} />
              <Button type="submit" intent="primary" loading={busy} text={tx('Turn on two-step verification')} data-testid="mfa-confirm" />
            </>
          }
        />
      </form>
    );
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        send({ change: doing.change, id: doing.id, name, ...(code.trim() ? { code: code.trim() } : { password }) });
      }}
      noValidate
    >
      <DialogBody>
        <Callout intent="warning" icon="warning-sign" className="gh-mfa-card__warning">
          {doing.warning}
        </Callout>
        <p>{hasApp ? tx('Confirm it is you: a code of your authenticator app, or your password.') : tx('Confirm it is you with your password.')}</p>
        {failure}
        {hasApp && field('code', tx('Code from the app'), code, setCode, { autoComplete: 'one-time-code', inputMode: 'numeric' }, tx('Six digits'))}
        {field('password', hasApp ? tx('Or your password') : tx('Your password'), password, setPassword, {
          type: 'password',
          autoComplete: 'current-password',
        })}
        {doing.change === 'add-passkey' &&
          field(
            'name',
            tx('Name of the passkey'),
            name,
            setName,
            { autoComplete: 'off' },
            tx('Such as the device it is on. Your browser asks for the passkey next.'),
          )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={tx('Cancel')} onClick={close} />
            <Button
              type="submit"
              intent={doing.change.startsWith('remove') || doing.change === 'recovery-codes' ? 'danger' : 'primary'}
              loading={busy}
              text={doing.submit}
              data-testid="mfa-confirm"
            />
          </>
        }
      />
    </form>
  );
}
