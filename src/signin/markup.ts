// The sign-in page as markup, for the light sign-in page (./LightSignIn.ts), which carries no React: the very elements,
// classes, ids and roles the console's form (./SignInView.tsx) renders, so the page looks and reads the same whichever
// of the two is on screen. signin.test.ts holds the two to the same markup in every state.
import { APP_VERSION } from '../../contract/constants';
import { signInIcon, type SignInIconName } from './iconPaths';
import type { SignInText } from './strings';

/** The two sign-in pages of the spec: /login (split) and /login-remake (centered). */
export type AuthVariant = 'split' | 'centered';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
/** Text or an attribute's value as markup (the characters React escapes, escaped as React does). */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** SignInIcon's markup. */
export function iconMarkup(icon: SignInIconName, tabIndex?: number): string {
  const { size, paths } = signInIcon(icon);
  const tab = tabIndex === undefined ? '' : ` tabindex="${tabIndex}"`;
  return (
    `<span aria-hidden="true"${tab} class="bp6-icon bp6-icon-${icon}">` +
    `<svg data-icon="${icon}" height="${size}" role="img" viewBox="0 0 ${size} ${size}" width="${size}">` +
    paths.map((d) => `<path d="${esc(d)}" fill-rule="evenodd"></path>`).join('') +
    `</svg></span>`
  );
}

/** AuthFrameView's markup around `card` (the card's own markup). */
export function frameMarkup(text: Pick<SignInText, 'brand' | 'pitch' | 'doors' | 'identities' | 'attendance'>, variant: AuthVariant, card: string): string {
  const logo = (dark: boolean) =>
    `<div class="${dark ? 'gh-auth__logo gh-auth__logo--dark' : 'gh-auth__logo'}"><span class="gh-logo-mark">${iconMarkup('office')}</span> ${esc(text.brand)}</div>`;
  const foot = (dark: boolean) => `<div class="${dark ? 'gh-auth__foot gh-auth__foot--dark' : 'gh-auth__foot'}">Version ${esc(APP_VERSION)}</div>`;
  const item = (icon: SignInIconName, words: string) => `<li>${iconMarkup(icon)} ${esc(words)}</li>`;
  const brand =
    variant === 'split'
      ? `<aside class="gh-auth__brand bp6-dark">${logo(false)}<div class="gh-auth__pitch"><h1>${esc(text.pitch)}</h1><ul>` +
        item('key-enter', text.doors) +
        item('people', text.identities) +
        item('time', text.attendance) +
        `</ul></div>${foot(false)}</aside>`
      : '';
  return (
    `<div class="gh-auth gh-auth--${variant}">${brand}<main class="gh-auth__main">` +
    (variant === 'centered' ? logo(true) : '') +
    `<div class="gh-auth__card">${card}</div>` +
    (variant === 'centered' ? foot(true) : '') +
    `</main></div>`
  );
}

/** SignInView's callout (an error or a notice). */
export function calloutMarkup(intent: 'warning' | 'danger', icon: SignInIconName, testId: string, words: string): string {
  return (
    `<div role="alert" class="bp6-callout bp6-intent-${intent} gh-signin__callout bp6-callout-has-body-content bp6-callout-icon" data-testid="${testId}">` +
    `${iconMarkup(icon, -1)}${esc(words)}</div>`
  );
}

/** Blueprint's small spinner, as a loading Button shows it. */
export const SPINNER_MARKUP =
  '<div aria-label="loading" aria-valuemax="100" aria-valuemin="0" class="bp6-spinner bp6-button-spinner" role="progressbar">' +
  '<div class="bp6-spinner-animation"><svg width="20" height="20" stroke-width="16.00" viewBox="-3.00 -3.00 106.00 106.00">' +
  '<path class="bp6-spinner-track" d="M 50,50 m 0,-45 a 45,45 0 1 1 0,90 a 45,45 0 1 1 0,-90"></path>' +
  '<path class="bp6-spinner-head" d="M 50,50 m 0,-45 a 45,45 0 1 1 0,90 a 45,45 0 1 1 0,-90" pathLength="280" stroke-dasharray="280 280" stroke-dashoffset="210"></path>' +
  '</svg></div></div>';

/** The submit button's classes, busy or not. */
export const submitClass = (busy: boolean) => `bp6-button${busy ? ' bp6-disabled' : ''} bp6-fill${busy ? ' bp6-loading' : ''} bp6-intent-primary bp6-large`;

/** The show/hide button's name and icon. */
export const revealState = (shown: boolean): { label: string; icon: SignInIconName } =>
  shown ? { label: 'Hide the password', icon: 'eye-off' } : { label: 'Show the password', icon: 'eye-open' };

/** Issue 49: an identity provider offered on the sign-in page (contract/iam.ts IamProvider). */
export interface SignInProvider {
  key: string;
  name: string;
  /** The server's start path: a plain link works without the console too. */
  href: string;
}

/** The identity providers' buttons, under the password form (none: nothing). */
export function providersMarkup(text: Pick<SignInText, 'or' | 'signInWith'>, providers: readonly SignInProvider[]): string {
  if (!providers.length) return '';
  return (
    `<div class="gh-signin__iam" data-testid="iam-providers"><p class="gh-signin__or bp6-text-muted">${esc(text.or)}</p>` +
    providers
      .map(
        (p) =>
          `<a class="bp6-button bp6-fill bp6-large gh-signin__provider" href="${esc(p.href)}" data-testid="iam-signin-${esc(p.key)}">` +
          `<span class="bp6-button-text">${esc(text.signInWith.replace('{name}', p.name))}</span></a>`,
      )
      .join('') +
    `</div>`
  );
}

export interface SignInFormState {
  /** Issue 49: the identity providers offered (none: the password form alone). */
  providers?: readonly SignInProvider[];
  title: string;
  busy: boolean;
  error?: string | null;
  notice?: string | null;
  showPassword?: boolean;
  /** The "Forgot password?" link's markup. */
  forgotLink: string;
}

function field(id: string, label: string, icon: SignInIconName, input: string, after = ''): string {
  return (
    `<div class="bp6-form-group"><label class="bp6-label" for="${id}">${esc(label)} <span class="bp6-text-muted"></span></label>` +
    `<div class="bp6-form-content"><div class="bp6-input-group bp6-large">${iconMarkup(icon, -1)}${input}${after}</div></div></div>`
  );
}

/** SignInView's markup with empty fields. */
export function signInFormMarkup(text: SignInText, s: SignInFormState): string {
  const reveal = revealState(Boolean(s.showPassword));
  return (
    `<form class="gh-signin" aria-label="${esc(text.formLabel)}"><h2 class="gh-signin__title">${esc(s.title)}</h2>` +
    `<p class="bp6-text-muted gh-signin__sub">${esc(text.sub)}</p>` +
    (s.notice ? calloutMarkup('warning', 'time', 'session-notice', s.notice) : '') +
    (s.error ? calloutMarkup('danger', 'error', 'signin-error', s.error) : '') +
    field(
      'username',
      text.username,
      'person',
      '<input id="username" class="bp6-input" type="text" autoComplete="username" autofocus="" name="username" value=""/>',
    ) +
    field(
      'password',
      text.password,
      'lock',
      `<input id="password" class="bp6-input" type="${s.showPassword ? 'text' : 'password'}" autoComplete="current-password" style="padding-right:40px" name="password" value=""/>`,
      `<span class="bp6-input-action"><button type="button" class="bp6-button bp6-minimal" aria-label="${reveal.label}">${iconMarkup(reveal.icon)}</button></span>`,
    ) +
    `<div class="gh-signin__row">${s.forgotLink}</div>` +
    `<button type="submit"${s.busy ? ' disabled=""' : ''} class="${submitClass(s.busy)}" data-testid="signin-submit">` +
    `${s.busy ? SPINNER_MARKUP : ''}<span class="bp6-button-text">${esc(text.signIn)}</span></button>` +
    providersMarkup(text, s.providers ?? []) +
    `<p class="gh-signin__hint bp6-text-muted" data-testid="demo-hint">Demo: the server prints the demo sign-ins (administrator, security operator, receptionist, HR manager, auditor) when it starts.</p>` +
    `</form>`
  );
}
