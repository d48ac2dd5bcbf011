// Issue 49: the Profile's two-step verification (docs/MFA.md): which factors the account has, and new recovery codes.
// Making new ones asks first (the ones kept now stop working) and for a current code of the authenticator app or the
// password; the new codes are shown once, in the dialog, until the person says they kept them.
import { useEffect, useState } from 'react';
import { Button, Callout, Card, Classes, Dialog, DialogBody, DialogFooter, FormGroup, H5, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { MfaStatus, Violation } from '../../../contract';
import { useViewActor } from '../../hooks/useViewActor';
import { sayViolation } from '../../resources/formMessages';
import { say, tx, useLocale } from '../../i18n';
import { labelled } from '../../i18n/violations';

export function ProfileMfaCard() {
  const locale = useLocale();
  const status = useViewActor('mfaStatusReading');
  const factors = useSelector(status, (s) => s.context.output as MfaStatus | null);
  const form = useViewActor('newRecoveryCodesForm', { input: {} });
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  const violations = useSelector(form, (s) => s.context.violations);
  const error = useSelector(form, (s) => s.context.error);
  // the dialog, what is typed until it is sent, and the codes the answer showed (once: gone when the dialog closes)
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  useEffect(() => {
    const sub = form.on('form.saved', (e) => {
      setCodes(e.shown?.recoveryCodes.split('\n') ?? []);
      status.send({ type: 'read.reload' });
    });
    return () => sub.unsubscribe();
  }, [form, status]);

  if (!factors) return null;
  const hasFactor = factors.totp || factors.passkeys.length > 0;
  const close = () => {
    setOpen(false);
    setCode('');
    setPassword('');
    setCodes(null);
    form.send({ type: 'form.reset' });
  };
  const problem = (field: string, label: string) => {
    const v = violations.find((x: Violation) => x.field === field);
    return v ? labelled(label, sayViolation(v.message, locale), locale) : undefined;
  };
  const unplaced = violations.filter((v: Violation) => v.field !== 'code' && v.field !== 'password');
  const codeLabel = tx('Code from the app');
  const passwordLabel = tx('Your password');

  return (
    <Card className="gh-form__section" data-testid="profile-mfa">
      <H5>{tx('Two-step verification')}</H5>
      {hasFactor ? (
        <>
          <p>
            {factors.totp ? tx('An authenticator app asks for a code at each sign-in.') : tx('A passkey is asked for at each sign-in.')}{' '}
            <span data-testid="recovery-codes-left">{tx('Recovery codes left: {count}', { count: factors.recoveryCodesLeft })}</span>
          </p>
          <Button icon="refresh" text={tx('New recovery codes…')} onClick={() => setOpen(true)} data-testid="new-recovery-codes" />
        </>
      ) : (
        <p className={Classes.TEXT_MUTED}>{tx('Two-step verification is off for your account.')}</p>
      )}
      <Dialog isOpen={open} onClose={close} title={codes ? tx('Keep your recovery codes') : tx('New recovery codes')} canOutsideClickClose={false}>
        {codes ? (
          <>
            <DialogBody>
              <p>{tx('Each code signs you in once if you lose your authenticator. They are shown only now: print them or keep them in a password manager.')}</p>
              <ol className="gh-mfa__codes" data-testid="new-recovery-code-list">
                {codes.map((c) => (
                  <li key={c}>
                    <code>{c}</code>
                  </li>
                ))}
              </ol>
            </DialogBody>
            <DialogFooter actions={<Button intent="primary" text={tx('I have kept them')} onClick={close} data-testid="recovery-codes-kept" />} />
          </>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              form.send({ type: 'form.submit', values: code.trim() ? { code: code.trim() } : { password } });
            }}
            noValidate
          >
            <DialogBody>
              <Callout intent="warning" icon="warning-sign">
                {tx('The recovery codes you have now stop working, and your other sessions end.')}
              </Callout>
              <p>{factors.totp ? tx('Confirm it is you: a code of your authenticator app, or your password.') : tx('Confirm it is you with your password.')}</p>
              {error && (
                <Callout intent="danger" icon="error" role="alert">
                  {say(error)}
                </Callout>
              )}
              {unplaced.length > 0 && (
                <Callout intent="danger" icon="error" role="alert">
                  {unplaced.map((v: Violation) => say(v.message)).join('; ')}
                </Callout>
              )}
              {factors.totp && (
                <FormGroup
                  label={codeLabel}
                  labelFor="recovery-confirm-code"
                  helperText={problem('code', codeLabel) ?? tx('Six digits')}
                  intent={problem('code', codeLabel) ? 'danger' : 'none'}
                >
                  <InputGroup
                    id="recovery-confirm-code"
                    name="code"
                    autoComplete="one-time-code"
                    inputMode="numeric"
                    value={code}
                    intent={problem('code', codeLabel) ? 'danger' : 'none'}
                    aria-invalid={!!problem('code', codeLabel)}
                    onChange={(e) => setCode(e.currentTarget.value)}
                  />
                </FormGroup>
              )}
              <FormGroup
                label={factors.totp ? tx('Or your password') : passwordLabel}
                labelFor="recovery-confirm-password"
                helperText={problem('password', passwordLabel)}
                intent={problem('password', passwordLabel) ? 'danger' : 'none'}
              >
                <InputGroup
                  id="recovery-confirm-password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  intent={problem('password', passwordLabel) ? 'danger' : 'none'}
                  aria-invalid={!!problem('password', passwordLabel)}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
              </FormGroup>
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text={tx('Cancel')} onClick={close} />
                  <Button type="submit" intent="danger" loading={busy} text={tx('Make new codes')} data-testid="make-recovery-codes" />
                </>
              }
            />
          </form>
        )}
      </Dialog>
    </Card>
  );
}
