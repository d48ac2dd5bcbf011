// The sign-in page, the one form: the frame (brand panel and card) and the form as plain elements with Blueprint's
// classes and React, without Blueprint's components, so the sign-in chunk (./SignInPage.tsx) carries React and this
// alone. Two callers decide what a submit does: the sign-in page of a cold load (./SignInPage.tsx) and the console's
// sign-in screen (src/screens/auth, the session actor's), which takes over from it.
import { useState, type ReactNode } from 'react';
import { APP_VERSION } from '../../contract/constants';
import { SignInIcon, type SignInIconName } from './icons';
import type { SignInText } from './strings';

/** The two sign-in pages of the spec: /login (split) and /login-remake (centered). */
export type AuthVariant = 'split' | 'centered';

/** Issue 49: an identity provider offered on the sign-in page (contract/iam.ts IamProvider). */
export interface SignInProvider {
  key: string;
  name: string;
  /** The server's start path: a plain link works without the console too. */
  href: string;
}

/** The submit button's classes, busy or not (Blueprint's large, filled primary Button). */
const submitClass = (busy: boolean) => `bp6-button${busy ? ' bp6-disabled' : ''} bp6-fill${busy ? ' bp6-loading' : ''} bp6-intent-primary bp6-large`;

/** The show/hide button's name and icon. */
const revealState = (shown: boolean): { label: string; icon: SignInIconName } =>
  shown ? { label: 'Hide the password', icon: 'eye-off' } : { label: 'Show the password', icon: 'eye-open' };

/** The frame of the no-layout screens: brand panel and a card. `centered` is /login-remake's look. */
export function AuthFrameView({
  text,
  variant = 'split',
  children,
}: {
  text: Pick<SignInText, 'brand' | 'pitch' | 'doors' | 'identities' | 'attendance'>;
  variant?: AuthVariant;
  children: ReactNode;
}) {
  const logo = (dark: boolean) => (
    <div className={dark ? 'gh-auth__logo gh-auth__logo--dark' : 'gh-auth__logo'}>
      <span className="gh-logo-mark">
        <SignInIcon icon="office" />
      </span>{' '}
      {text.brand}
    </div>
  );
  return (
    <div className={`gh-auth gh-auth--${variant}`}>
      {variant === 'split' && (
        <aside className="gh-auth__brand bp6-dark">
          {logo(false)}
          <div className="gh-auth__pitch">
            <h1>{text.pitch}</h1>
            <ul>
              <li>
                <SignInIcon icon="key-enter" /> {text.doors}
              </li>
              <li>
                <SignInIcon icon="people" /> {text.identities}
              </li>
              <li>
                <SignInIcon icon="time" /> {text.attendance}
              </li>
            </ul>
          </div>
          <div className="gh-auth__foot">Version {APP_VERSION}</div>
        </aside>
      )}
      <main className="gh-auth__main">
        {variant === 'centered' && logo(true)}
        <div className="gh-auth__card">{children}</div>
        {variant === 'centered' && <div className="gh-auth__foot gh-auth__foot--dark">Version {APP_VERSION}</div>}
      </main>
    </div>
  );
}

/** What a sign-in form holds before it is sent: the sign-in page hands it to the console's form. */
export interface SignInDraft {
  username: string;
  password: string;
  /** Issue 49: the sign-in page's "Sign in with a passkey" was chosen: the console's form starts that sign-in instead. */
  passkey?: boolean;
}

export interface SignInViewProps {
  text: SignInText;
  title: string;
  draft: SignInDraft;
  onDraft(next: SignInDraft): void;
  onSubmit(): void;
  busy: boolean;
  error?: string | null;
  notice?: string | null;
  /** The "Forgot password?" link (a router link in the console, a plain one on the sign-in page of a cold load). */
  forgotLink: ReactNode;
  /** Issue 49: the identity providers offered, and what choosing one does (a plain link without it). */
  providers?: readonly SignInProvider[];
  onProvider?(key: string): void;
  /** Issue 49: "Sign in with a passkey", shown with the providers where the browser has WebAuthn (none: no button). */
  onPasskey?(): void;
}

function Callout({ intent, icon, testId, children }: { intent: 'warning' | 'danger'; icon: SignInIconName; testId: string; children: ReactNode }) {
  return (
    // an error or notice that appears is read out at once (role alert), as it is shown
    <div role="alert" className={`bp6-callout bp6-intent-${intent} gh-signin__callout bp6-callout-has-body-content bp6-callout-icon`} data-testid={testId}>
      <SignInIcon icon={icon} tabIndex={-1} />
      {children}
    </div>
  );
}

/** Blueprint's small spinner, as a loading Button shows it. */
function ButtonSpinner() {
  return (
    <div aria-label="loading" aria-valuemax={100} aria-valuemin={0} className="bp6-spinner bp6-button-spinner" role="progressbar">
      <div className="bp6-spinner-animation">
        <svg width={20} height={20} strokeWidth="16.00" viewBox="-3.00 -3.00 106.00 106.00">
          <path className="bp6-spinner-track" d="M 50,50 m 0,-45 a 45,45 0 1 1 0,90 a 45,45 0 1 1 0,-90" />
          <path
            className="bp6-spinner-head"
            d="M 50,50 m 0,-45 a 45,45 0 1 1 0,90 a 45,45 0 1 1 0,-90"
            pathLength={280}
            strokeDasharray="280 280"
            strokeDashoffset={210}
          />
        </svg>
      </div>
    </div>
  );
}

function Field({ id, label, icon, children }: { id: string; label: string; icon: SignInIconName; children: ReactNode }) {
  return (
    <div className="bp6-form-group">
      <label className="bp6-label" htmlFor={id}>
        {label} <span className="bp6-text-muted" />
      </label>
      <div className="bp6-form-content">
        <div className="bp6-input-group bp6-large">
          <SignInIcon icon={icon} tabIndex={-1} />
          {children}
        </div>
      </div>
    </div>
  );
}

/** The sign-in form shared by /login and /login-remake. It only shows and reports: the caller decides what a submit does. */
export function SignInView({ text, title, draft, onDraft, onSubmit, busy, error, notice, forgotLink, providers = [], onProvider, onPasskey }: SignInViewProps) {
  const [showPassword, setShowPassword] = useState(false);
  return (
    <form
      className="gh-signin"
      aria-label={text.formLabel}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <h2 className="gh-signin__title">{title}</h2>
      <p className="bp6-text-muted gh-signin__sub">{text.sub}</p>
      {notice && (
        <Callout intent="warning" icon="time" testId="session-notice">
          {notice}
        </Callout>
      )}
      {error && (
        <Callout intent="danger" icon="error" testId="signin-error">
          {error}
        </Callout>
      )}
      <Field id="username" label={text.username} icon="person">
        <input
          id="username"
          name="username"
          className="bp6-input"
          type="text"
          autoComplete="username"
          // the page has one task: the cursor starts in it
          autoFocus
          value={draft.username}
          onChange={(e) => onDraft({ ...draft, username: e.currentTarget.value })}
        />
      </Field>
      <Field id="password" label={text.password} icon="lock">
        <input
          id="password"
          name="password"
          className="bp6-input"
          type={showPassword ? 'text' : 'password'}
          autoComplete="current-password"
          style={{ paddingRight: 40 }}
          value={draft.password}
          onChange={(e) => onDraft({ ...draft, password: e.currentTarget.value })}
        />
        <span className="bp6-input-action">
          <button type="button" className="bp6-button bp6-minimal" aria-label={revealState(showPassword).label} onClick={() => setShowPassword((s) => !s)}>
            <SignInIcon icon={revealState(showPassword).icon} />
          </button>
        </span>
      </Field>
      <div className="gh-signin__row">{forgotLink}</div>
      <button type="submit" disabled={busy} className={submitClass(busy)} data-testid="signin-submit">
        {busy && <ButtonSpinner />}
        <span className="bp6-button-text">{text.signIn}</span>
      </button>
      {(providers.length > 0 || onPasskey) && (
        <div className="gh-signin__iam" data-testid="iam-providers">
          <p className="gh-signin__or bp6-text-muted">{text.or}</p>
          {providers.map((p) => (
            <a
              key={p.key}
              className="bp6-button bp6-fill bp6-large gh-signin__provider"
              href={p.href}
              data-testid={`iam-signin-${p.key}`}
              onClick={(e) => {
                if (!onProvider || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
                e.preventDefault();
                onProvider(p.key);
              }}
            >
              <span className="bp6-button-text">{text.signInWith.replace('{name}', p.name)}</span>
            </a>
          ))}
          {onPasskey && (
            // Blueprint's large, filled Button with an icon, as plain elements
            <button
              type="button"
              disabled={busy}
              className={`bp6-button${busy ? ' bp6-disabled' : ''} bp6-fill bp6-large`}
              onClick={onPasskey}
              data-testid="signin-passkey"
            >
              <SignInIcon icon="key" />
              <span className="bp6-button-text">{text.passkey}</span>
            </button>
          )}
        </div>
      )}
      <p className="gh-signin__hint bp6-text-muted" data-testid="demo-hint">
        Demo: the server prints the demo sign-ins (administrator, security operator, receptionist, HR manager, auditor) when it starts.
      </p>
    </form>
  );
}
