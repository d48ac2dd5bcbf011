import { lazy, Suspense, type ComponentProps } from 'react';
import { t, tx } from '../../i18n';
import { Link, useSearchParams } from 'react-router-dom';
import { Callout, Spinner } from '@blueprintjs/core';
import { ResetFinishRequest, ResetInitRequest } from '../../../contract';
import { AuthFrame } from './AuthFrame';
import { SignInForm } from './SignInForm';

// The forgot and reset screens' form (react-final-form and the form actor) is its own chunk: the sign-in screen, which
// shares this chunk, does not carry it (issue 30).
const LazyPasswordForm = lazy(() => import('./PasswordForm').then((m) => ({ default: m.PasswordForm })));
function PasswordForm(props: ComponentProps<typeof LazyPasswordForm>) {
  return (
    <Suspense fallback={<Spinner size={30} />}>
      <LazyPasswordForm {...props} />
    </Suspense>
  );
}

export function LoginScreen() {
  return (
    <AuthFrame>
      <SignInForm />
    </AuthFrame>
  );
}

/** /login-remake: the same form in the alternative, centered layout (signed-out visitors only). */
export function LoginRemakeScreen() {
  return (
    <AuthFrame variant="centered">
      <SignInForm title={tx('Welcome back')} />
    </AuthFrame>
  );
}

export function ForgotPasswordScreen() {
  return (
    <AuthFrame>
      <h2 className="gh-signin__title">{tx('Forgot password')}</h2>
      <p className="bp6-text-muted gh-signin__sub">{tx('Enter your username. A reset link goes to the address on your account.')}</p>
      <PasswordForm
        machine="forgotPasswordMachine"
        schema={ResetInitRequest}
        fields={[{ name: 'username', label: t('username'), autoComplete: 'username' }]}
        submitText={tx('Send reset link')}
        done={
          <>
            {tx('If the account exists, a reset link is on its way.')} <Link to="/login">{tx('Back to sign in')}</Link>
          </>
        }
      />
      <p className="gh-signin__row">
        <Link to="/login">{tx('Back to sign in')}</Link>
      </p>
    </AuthFrame>
  );
}

export function ResetPasswordScreen() {
  const [query] = useSearchParams();
  const token = query.get('token') ?? '';
  return (
    <AuthFrame>
      <h2 className="gh-signin__title">{tx('Choose a new password')}</h2>
      {!token ? (
        <Callout intent="warning" icon="warning-sign">
          {tx('This page needs the link from the reset message.')} <Link to="/forgot-password">{tx('Ask for a new one')}</Link>.
        </Callout>
      ) : (
        <PasswordForm
          machine="resetPasswordMachine"
          schema={ResetFinishRequest}
          fixed={{ token }}
          fields={[{ name: 'newPassword', label: tx('New password'), type: 'password', autoComplete: 'new-password' }]}
          confirm={{ name: 'confirmPassword', label: t('repeatNewPassword'), of: 'newPassword' }}
          submitText={tx('Set password')}
          done={
            <>
              {tx('Your password has been changed.')} <Link to="/login">{tx('Sign in')}</Link>
            </>
          }
        />
      )}
      <p className="gh-signin__row">
        <Link to="/login">{tx('Back to sign in')}</Link>
      </p>
    </AuthFrame>
  );
}
