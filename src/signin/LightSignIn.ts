// The light sign-in page (issue 30): what a cold load of /login or /login-remake with no stored session shows. It is
// the console form's markup (./markup.ts) and a few listeners: no React, router, actor system, Blueprint component,
// catalogue or i18next, so the page is usable as soon as its small script has run. At the operator's first key or
// click it fetches the console; on submit it mounts the console (hidden) with the typed draft, whose own form sends
// the session its sign-in and takes over the screen. An in-app return to /login (sign-out, expiry) is the console's
// own form, as the light page is only a cold load's.
import { STORAGE } from '../../contract/constants';
import { handDraft, onDraftTaken } from './handover';
import { API } from '../../contract/api';
import {
  calloutMarkup,
  esc,
  frameMarkup,
  iconMarkup,
  providersMarkup,
  revealState,
  signInFormMarkup,
  SPINNER_MARKUP,
  submitClass,
  type SignInProvider,
} from './markup';
import { redirectOfQuery } from './redirect';
import { SIGN_IN_TEXT, type SignInLocale } from './strings';
import type { SignInDraft } from './SignInView';
import type { AuthVariant } from './markup';

/** The paths the light page stands in for, with their look. */
const LIGHT_PATHS: Record<string, AuthVariant> = { '/login': 'split', '/login-remake': 'centered' };

/** The light page's look for a cold load of `path`, or null when the console itself is to start (another path, or a
 *  session stored: that console restores it, as a reload does). */
export function lightSignInVariant(path: string, storage: Pick<Storage, 'getItem'>, hash = ''): AuthVariant | null {
  const variant = LIGHT_PATHS[path];
  // issue 49: back from an identity provider's sign-in (`#iam=…`): the console exchanges its ticket
  if (!variant || hash.startsWith('#iam=')) return null;
  try {
    return storage.getItem(STORAGE.jwt) ? null : variant;
  } catch {
    return null;
  }
}

export const LOAD_FAILED: Record<SignInLocale, string> = {
  en: 'The console could not be loaded. Check the connection and sign in again.',
  'zh-CN': '无法加载控制台。请检查网络连接后重新登录。',
};

/** Puts the console on screen in `host` (an element of its own). */
export type MountConsole = (host: HTMLElement) => void;
/** What the light page needs of the console: a way to mount it, once its code is in. */
export type LoadConsole = () => Promise<MountConsole>;

/** The events that say the operator has started to sign in: a key, a pointer, or a field filled (autofill, paste). */
const FIRST_USE = ['keydown', 'pointerdown', 'input'] as const;

/** Runs `work` once, at the operator's first use of the page. */
function atFirstUse(work: () => void): void {
  const once = () => {
    FIRST_USE.forEach((type) => document.removeEventListener(type, once, true));
    work();
  };
  FIRST_USE.forEach((type) => document.addEventListener(type, once, true));
}

/** The light page's markup for `variant` in `locale`, as it first shows. */
export function lightSignInMarkup(variant: AuthVariant, locale: SignInLocale): string {
  const text = SIGN_IN_TEXT[locale];
  const form = signInFormMarkup(text, {
    title: variant === 'centered' ? text.welcomeBack : text.title,
    busy: false,
    // a page load of its own: the console starts there (its code is cached by then)
    forgotLink: `<a href="/forgot-password">${esc(text.forgotPassword)}</a>`,
  });
  return frameMarkup(text, variant, form);
}

/** Shows the light page in `root` and wires it: the console comes at first use and takes over on submit. */
export function startLightSignIn(root: HTMLElement, variant: AuthVariant, locale: SignInLocale, loadConsole: LoadConsole): void {
  document.title = SIGN_IN_TEXT[locale].pageTitle;
  document.documentElement.lang = locale;
  root.innerHTML = lightSignInMarkup(variant, locale);
  const frame = root.firstElementChild as HTMLElement;
  const form = frame.querySelector('form')!;
  const username = form.querySelector<HTMLInputElement>('#username')!;
  const password = form.querySelector<HTMLInputElement>('#password')!;
  const reveal = form.querySelector<HTMLButtonElement>('.bp6-input-action button')!;
  const submit = form.querySelector<HTMLButtonElement>('[data-testid=signin-submit]')!;
  const sub = form.querySelector('.gh-signin__sub')!;
  // The page has one task: the cursor starts in it. The field's `autofocus` puts it there when the first frame is
  // drawn; focus() here would make the browser match styles and lay the page out inside this script's task, which
  // is then one long task with the parse of the page (issue 30: no task over 50 ms).

  let shown = false;
  reveal.addEventListener('click', () => {
    shown = !shown;
    const r = revealState(shown);
    password.type = shown ? 'text' : 'password';
    reveal.setAttribute('aria-label', r.label);
    reveal.innerHTML = iconMarkup(r.icon);
  });

  let busy = false;
  const setBusy = (b: boolean) => {
    busy = b;
    submit.disabled = b;
    submit.className = submitClass(b);
    if (b) submit.insertAdjacentHTML('afterbegin', SPINNER_MARKUP);
    else submit.querySelector('.bp6-spinner')?.remove();
  };
  const setFailed = (failed: boolean) => {
    form.querySelector('[data-testid=signin-error]')?.remove();
    if (failed) sub.insertAdjacentHTML('afterend', calloutMarkup('danger', 'error', 'signin-error', LOAD_FAILED[locale]));
  };

  // issue 49: the identity providers the server offers, as plain links to their start (the console's form sends the
  // session the same choice); the page works without them, so a failure shows nothing more
  const askedClient = new URLSearchParams(window.location.search).get('client'); // a client's own providers (/login?client=CODE)
  void fetch(askedClient ? `${API.iamProviders}?client=${encodeURIComponent(askedClient)}` : API.iamProviders, { headers: { accept: 'application/json' } })
    .then((r) => (r.ok ? r.json() : []))
    .then((list: unknown) => {
      const back = redirectOfQuery(window.location.search);
      const providers: SignInProvider[] = (Array.isArray(list) ? list : [])
        .filter(
          (p): p is { key: string; name: string; start: string } =>
            typeof p?.key === 'string' && typeof p?.name === 'string' && typeof p?.start === 'string' && p.start.startsWith('/idp/'),
        )
        .map((p) => ({ key: p.key, name: p.name, href: back ? `${p.start}&return=${encodeURIComponent(back)}` : p.start }));
      if (providers.length && frame.isConnected) submit.insertAdjacentHTML('afterend', providersMarkup(SIGN_IN_TEXT[locale], providers));
    })
    .catch(() => undefined);

  // issue 49: "Sign in with a passkey" where the browser has WebAuthn: the console comes and its form starts that
  // sign-in (the session machine's, as the console's own button does)
  if (typeof window.PublicKeyCredential === 'function') {
    submit.insertAdjacentHTML(
      'afterend',
      `<div class="gh-signin__iam"><p class="gh-signin__or bp6-text-muted">${esc(SIGN_IN_TEXT[locale].or)}</p>` +
        `<button type="button" class="bp6-button bp6-fill bp6-large" data-testid="signin-passkey"><span class="bp6-button-text">${esc(SIGN_IN_TEXT[locale].passkey)}</span></button></div>`,
    );
    form
      .querySelector<HTMLButtonElement>('[data-testid=signin-passkey]')!
      .addEventListener('click', () => handOver({ username: '', password: '', passkey: true }));
  }

  // The console's code comes while the operator types: not before, as running it is a long task (most of a second on
  // a busy machine) that would hold up the page's first input. A failure here is met again, and shown, on submit.
  atFirstUse(() => void loadConsole().catch(() => undefined));

  // hidden until its form has the draft: the page never flashes a spinner between the two forms
  const host = document.createElement('div');
  host.style.display = 'none';
  const stop = onDraftTaken(() => {
    stop();
    // the cursor stays in the field the operator was in
    const id = document.activeElement?.id;
    const field = id === 'username' || id === 'password' ? id : null;
    frame.remove();
    host.style.display = 'contents';
    if (field) document.getElementById(field)?.focus();
  });

  /** The console (hidden) takes over with the draft; its form sends the session the sign-in. */
  function handOver(draft: SignInDraft) {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    loadConsole().then(
      (mount) => {
        handDraft(draft);
        root.insertBefore(host, frame);
        mount(host);
      },
      () => {
        setBusy(false);
        setFailed(true);
      },
    );
  }
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    handOver({ username: username.value, password: password.value });
  });
}
