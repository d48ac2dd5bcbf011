// Issue 49: the second step of a sign-in (machines/session.mfa.ts): a code of the authenticator app or a recovery
// code (or a passkey); or, where the client requires MFA of an account that has none, the enrolment first: the QR code
// to scan, its first code, then the recovery codes shown once. It only shows and sends events.
import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { Button, Callout, FormGroup, InputGroup, Spinner } from '@blueprintjs/core';
import type { MfaSignInActor } from '../../../machines/session.mfa';
import {
  selectMfaBusy,
  selectMfaEnrolment,
  selectMfaError,
  selectMfaMethods,
  selectMfaView,
  selectRecoveryCodes,
} from '../../../machines/session.mfa.selectors';
import { say, tx, useLocale } from '../../i18n';

export function SecondStep({ mfa }: { mfa: MfaSignInActor }) {
  useLocale();
  const view = useSelector(mfa, selectMfaView);
  const busy = useSelector(mfa, selectMfaBusy);
  const error = useSelector(mfa, selectMfaError);
  const enrolment = useSelector(mfa, selectMfaEnrolment);
  const codes = useSelector(mfa, selectRecoveryCodes);
  const methods = useSelector(mfa, selectMfaMethods);
  // visual: what is typed, until it is sent (the machine holds what was sent and what the server said)
  const [code, setCode] = useState('');
  const errorBox = error && (
    <Callout intent="danger" icon="error" className="gh-signin__callout" data-testid="mfa-error" role="alert">
      {say(error)}
    </Callout>
  );
  const back = <Button variant="minimal" text={tx('Back to sign in')} onClick={() => mfa.send({ type: 'mfa.cancel' })} data-testid="mfa-back" />;
  /** The six digits of the app (or a recovery code): the enrolment's first code and the sign-in's second step. */
  const codeForm = (f: { title: string; sub: string; label: string; help: string; submit: string; top?: React.ReactNode; more?: React.ReactNode }) => (
    <form
      className="gh-signin"
      aria-label={f.title}
      onSubmit={(e) => {
        e.preventDefault();
        mfa.send({ type: 'mfa.submitCode', code });
      }}
    >
      <h2 className="gh-signin__title">{f.title}</h2>
      <p className="bp6-text-muted gh-signin__sub">{f.sub}</p>
      {f.top}
      {errorBox}
      <FormGroup label={f.label} labelFor="mfa-code" helperText={f.help} intent={error ? 'danger' : 'none'}>
        <InputGroup
          id="mfa-code"
          name="code"
          large
          autoFocus
          autoComplete="one-time-code"
          value={code}
          intent={error ? 'danger' : 'none'}
          aria-invalid={!!error}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
      </FormGroup>
      <Button type="submit" intent="primary" large fill loading={busy} text={f.submit} data-testid="mfa-submit" />
      {f.more}
      {back}
    </form>
  );
  /** "Use a passkey": the enrolment's choice and the sign-in's other way. */
  const passkeyButton = (event: 'mfa.enrolPasskey' | 'mfa.usePasskey', testId: string) => (
    <Button large fill icon="key" disabled={busy} text={tx('Use a passkey')} onClick={() => mfa.send({ type: event })} data-testid={testId} />
  );

  if (view === 'keepingCodes')
    return (
      <div className="gh-signin" data-testid="mfa-recovery-codes">
        <h2 className="gh-signin__title">{tx('Keep your recovery codes')}</h2>
        <p className="bp6-text-muted gh-signin__sub">
          {tx('Each code signs you in once if you lose your authenticator. They are shown only now: print them or keep them in a password manager.')}
        </p>
        <ol className="gh-mfa__codes">
          {codes?.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ol>
        <Button
          intent="primary"
          large
          fill
          text={tx('I have kept them: continue')}
          onClick={() => mfa.send({ type: 'mfa.codesKept' })}
          data-testid="mfa-codes-kept"
        />
      </div>
    );
  if (view === 'scanning' && enrolment)
    return codeForm({
      title: tx('Set up an authenticator app'),
      sub: tx('Scan the code with the app (or type the key), then enter the six digits it shows.'),
      top: (
        <>
          <img
            className="gh-mfa__qr"
            alt={tx('QR code to scan with the authenticator app')}
            src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qr)}`}
          />
          <p className="gh-mfa__secret">
            {tx('Key')}: <code data-testid="mfa-secret">{enrolment.secret}</code>
          </p>
        </>
      ),
      label: tx('Code from the app'),
      help: tx('Six digits'),
      submit: tx('Turn on two-step verification'),
    });
  if (view === 'choosing')
    return (
      <div className="gh-signin">
        <h2 className="gh-signin__title">{tx('Set up two-step verification')}</h2>
        <p className="bp6-text-muted gh-signin__sub">{tx('Your organisation requires a second step at sign-in for your account. Set it up to continue.')}</p>
        {errorBox}
        <Button
          intent="primary"
          large
          fill
          icon="mobile-phone"
          loading={busy}
          text={tx('Use an authenticator app')}
          onClick={() => mfa.send({ type: 'mfa.enrolApp' })}
          data-testid="mfa-enrol-app"
        />
        {passkeyButton('mfa.enrolPasskey', 'mfa-enrol-passkey')}
        {back}
      </div>
    );
  if (view === 'asking')
    return codeForm({
      title: tx('Two-step verification'),
      sub: tx('Enter the six digits your authenticator app shows, or one of your recovery codes.'),
      label: tx('Verification code'),
      help: tx('Six digits, or a recovery code such as abcde-fghij'),
      submit: tx('Verify'),
      more: methods.includes('passkey') && passkeyButton('mfa.usePasskey', 'mfa-passkey'),
    });
  return <Spinner size={30} />;
}
