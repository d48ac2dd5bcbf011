// The sign-in page of a cold load (issues 30 and 48): what /login or /login-remake shows when no session is stored. It
// is the sign-in chunk: React and the one sign-in form (./SignInView.tsx), without Blueprint's components, the router,
// the actor system, the catalogue or i18next, so the page is usable as soon as this small chunk has run. At the
// operator's first key or click it fetches the console; on submit it mounts the console (hidden) with the typed draft,
// whose own sign-in screen (src/screens/auth, the same form) sends the session the sign-in and takes over the screen.
// An in-app return to /login (sign-out, expiry) is the console's own screen.
import { startTransition, StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { API } from '../../contract/api';
import { handDraft, onDraftTaken } from './handover';
import { redirectOfQuery } from './redirect';
import { AuthFrameView, SignInView, type AuthVariant, type SignInDraft, type SignInProvider } from './SignInView';
import { SIGN_IN_TEXT, type SignInLocale } from './strings';

/** Puts the console on screen in `host` (an element of its own). */
export type MountConsole = (host: HTMLElement) => void;
/** What the sign-in page needs of the console: a way to mount it, once its code is in. */
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

/** The identity providers the server offers (issue 49), as links to their start with the page's return address. */
export function providersOf(list: unknown, search: string): SignInProvider[] {
  const back = redirectOfQuery(search);
  return (Array.isArray(list) ? list : [])
    .filter(
      (p): p is { key: string; name: string; start: string } =>
        typeof p?.key === 'string' && typeof p?.name === 'string' && typeof p?.start === 'string' && p.start.startsWith('/idp/'),
    )
    .map((p) => ({ key: p.key, name: p.name, href: back ? `${p.start}&return=${encodeURIComponent(back)}` : p.start }));
}

interface PageProps {
  variant: AuthVariant;
  locale: SignInLocale;
  /** The operator submitted: the console takes over with the draft; rejects when its code could not be loaded. */
  handOver(draft: SignInDraft): Promise<void>;
}

/** The sign-in page: the one form, its submit handed to the console. */
export function SignInPage({ variant, locale, handOver }: PageProps) {
  const text = SIGN_IN_TEXT[locale];
  const [draft, setDraft] = useState<SignInDraft>({ username: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [providers, setProviders] = useState<SignInProvider[]>([]);

  // issue 49: the identity providers the server offers, as plain links to their start (the console's form sends the
  // session the same choice); the page works without them, so a failure shows nothing more
  useEffect(() => {
    const asked = new URLSearchParams(window.location.search).get('client'); // a client's own providers (/login?client=CODE)
    let live = true;
    void fetch(asked ? `${API.iamProviders}?client=${encodeURIComponent(asked)}` : API.iamProviders, { headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : []))
      .then((list: unknown) => {
        if (live) setProviders(providersOf(list, window.location.search));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const submit = (d: SignInDraft) => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    handOver(d).catch(() => {
      setBusy(false);
      setFailed(true);
    });
  };
  return (
    <AuthFrameView text={text} variant={variant}>
      <SignInView
        text={text}
        title={variant === 'centered' ? text.welcomeBack : text.title}
        draft={draft}
        onDraft={setDraft}
        onSubmit={() => submit(draft)}
        busy={busy}
        error={failed ? text.loadFailed : null}
        // a page load of its own: the console starts there (its code is cached by then)
        forgotLink={<a href="/forgot-password">{text.forgotPassword}</a>}
        providers={providers}
        // issue 49: where the browser has WebAuthn, the console comes and its form starts that sign-in
        onPasskey={typeof window.PublicKeyCredential === 'function' ? () => submit({ username: '', password: '', passkey: true }) : undefined}
      />
    </AuthFrameView>
  );
}

/** Shows the sign-in page in `root` and wires it: the console comes at first use and takes over on submit. */
export function startSignInPage(root: HTMLElement, variant: AuthVariant, locale: SignInLocale, loadConsole: LoadConsole): void {
  document.title = SIGN_IN_TEXT[locale].pageTitle;
  document.documentElement.lang = locale;
  // The console's code comes while the operator types: not before, as running it is a long task that would hold up
  // the page's first input. A failure here is met again, and shown, on submit.
  atFirstUse(() => void loadConsole().catch(() => undefined));

  // the page and the console each in an element of their own; the console's stays hidden until its form has the
  // draft, so the screen never flashes a spinner between the two
  const page = document.createElement('div');
  page.style.display = 'contents';
  const host = document.createElement('div');
  host.style.display = 'none';
  root.append(page);
  const pageRoot = createRoot(page);

  const handOver = (draft: SignInDraft) =>
    loadConsole().then((mount) => {
      const stop = onDraftTaken(() => {
        stop();
        // after the console's effect that took the draft (a root is not unmounted while another renders), before the
        // next frame is drawn
        queueMicrotask(() => {
          // the cursor stays in the field the operator was in
          const id = document.activeElement?.id;
          const field = id === 'username' || id === 'password' ? id : null;
          pageRoot.unmount();
          page.remove();
          host.style.display = 'contents';
          if (field) document.getElementById(field)?.focus();
        });
      });
      handDraft(draft);
      root.insertBefore(host, page);
      mount(host);
    });

  // a transition: React renders the page in slices that yield to the browser (a few ms each), so the first render,
  // which also compiles React's code on its first calls, is no long task (issue 30: no task over 50 ms)
  startTransition(() =>
    pageRoot.render(
      <StrictMode>
        <SignInPage variant={variant} locale={locale} handOver={handOver} />
      </StrictMode>,
    ),
  );
}
