// The sign-in form shared by /login and /login-remake. It sends session.signIn; the session actor decides.
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Callout, FormGroup, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import {
  selectClientId,
  selectHeldPrivileges,
  selectIsBusy,
  selectIsSignedIn,
  selectNotice,
  selectRedirect,
  selectSignInError,
} from '../../../machines/session.selectors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { landingPath } from '../../app/guard';
import { useT, tx } from '../../i18n';

/** Only same-origin paths are followed after sign-in. */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return null;
  return value;
}

export function SignInForm({ title = 'Sign in to Gatehouse' }: { title?: string }) {
  const t = useT();
  const session = useSystemActor('session');
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const signedIn = useSelector(session, selectIsSignedIn);
  const busy = useSelector(session, selectIsBusy);
  const error = useSelector(session, selectSignInError);
  const notice = useSelector(session, selectNotice);
  const redirect = useSelector(session, selectRedirect);
  const held = useSelector(session, selectHeldPrivileges);
  const clientId = useSelector(session, selectClientId);
  // form drafts are visual until submitted
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);

  // The session actor decided whose return address this is (issue 10): the query's address travelled with the
  // sign-in request, and is dropped when another user signs in. Only a page this user may open is followed.
  const landed = useRef(false);
  useEffect(() => {
    if (!signedIn) {
      landed.current = false;
      return;
    }
    // once per sign-in: handling the redirect clears it, which must not send the user on to the dashboard
    if (landed.current) return;
    landed.current = true;
    const to = landingPath(safeRedirect(redirect), { signedIn, held, clientId });
    session.send({ type: 'session.redirectHandled' });
    navigate(to, { replace: true });
  }, [signedIn, redirect, held, clientId, navigate, session]);

  return (
    <form
      className="gh-signin"
      aria-label={tx('Sign in')}
      onSubmit={(e) => {
        e.preventDefault();
        session.send({ type: 'session.signIn', username, password, redirect: safeRedirect(query.get('redirect')) ?? undefined });
      }}
    >
      <h2 className="gh-signin__title">{title}</h2>
      <p className="bp6-text-muted gh-signin__sub">{tx('Use your operator account.')}</p>
      {notice && (
        <Callout intent="warning" icon="time" className="gh-signin__callout" data-testid="session-notice">
          {notice}
        </Callout>
      )}
      {error && (
        <Callout intent="danger" icon="error" className="gh-signin__callout" data-testid="signin-error">
          {error}
        </Callout>
      )}
      <FormGroup label={t('username')} labelFor="username">
        <InputGroup
          id="username"
          name="username"
          size="large"
          leftIcon="person"
          autoComplete="username"
          autoFocus
          value={username}
          onChange={(e) => {
            setUsername(e.currentTarget.value);
            if (notice) session.send({ type: 'session.noticeDismissed' });
          }}
        />
      </FormGroup>
      <FormGroup label={t('password')} labelFor="password">
        <InputGroup
          id="password"
          name="password"
          size="large"
          leftIcon="lock"
          autoComplete="current-password"
          type={showPassword ? 'text' : 'password'}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          rightElement={
            <Button
              variant="minimal"
              icon={showPassword ? 'eye-off' : 'eye-open'}
              aria-label={showPassword ? 'Hide the password' : 'Show the password'}
              onClick={() => setShowPassword((s) => !s)}
            />
          }
        />
      </FormGroup>
      <div className="gh-signin__row">
        <Link to="/forgot-password">{t('forgotPassword')}</Link>
      </div>
      <Button type="submit" intent="primary" size="large" fill loading={busy} text={t('signIn')} data-testid="signin-submit" />
      <p className="gh-signin__hint bp6-text-muted" data-testid="demo-hint">
        Demo: the server prints the demo sign-ins (administrator, security operator, receptionist, HR manager, auditor) when it starts.
      </p>
    </form>
  );
}
