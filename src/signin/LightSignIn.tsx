// The light sign-in page (issue 30): what a cold load of /login or /login-remake with no stored session shows. It is
// React and the plain SignInView only: no router, actor system, Blueprint component, catalogue or i18next, so the page
// is usable after a fraction of the console's script. At the operator's first key or click it fetches the console; on submit it
// mounts the console (hidden) with the typed draft, whose own form sends the session its sign-in and takes over the
// screen. An in-app return to /login (sign-out, expiry) is the console's own form, as the light page is only a cold
// load's.
import { useEffect, useState, type ComponentType } from 'react';
import { STORAGE } from '../../contract/constants';
import { handDraft, onDraftTaken } from './handover';
import { SIGN_IN_TEXT, type SignInLocale } from './strings';
import { AuthFrameView, SignInView, type AuthVariant, type SignInDraft } from './SignInView';

/** The paths the light page stands in for, with their look. */
const LIGHT_PATHS: Record<string, AuthVariant> = { '/login': 'split', '/login-remake': 'centered' };

/** The light page's look for a cold load of `path`, or null when the console itself is to start (another path, or a
 *  session stored: that console restores it, as a reload does). */
export function lightSignInVariant(path: string, storage: Pick<Storage, 'getItem'>): AuthVariant | null {
  const variant = LIGHT_PATHS[path];
  if (!variant) return null;
  try {
    return storage.getItem(STORAGE.jwt) ? null : variant;
  } catch {
    return null;
  }
}

const LOAD_FAILED: Record<SignInLocale, string> = {
  en: 'The console could not be loaded. Check the connection and sign in again.',
  'zh-CN': '无法加载控制台。请检查网络连接后重新登录。',
};

/** What the light page needs of the console: its root component, once its code is in. */
export type LoadConsole = () => Promise<ComponentType>;

/** The events that say the operator has started to sign in: a key, a pointer, or a field filled (autofill, paste). */
const FIRST_USE = ['keydown', 'pointerdown', 'input'] as const;

/** Runs `work` once, at the operator's first use of the page. */
function atFirstUse(work: () => void): () => void {
  const once = () => {
    stop();
    work();
  };
  const stop = () => FIRST_USE.forEach((type) => document.removeEventListener(type, once, true));
  FIRST_USE.forEach((type) => document.addEventListener(type, once, true));
  return stop;
}

export function LightSignIn({ variant, locale, loadConsole }: { variant: AuthVariant; locale: SignInLocale; loadConsole: LoadConsole }) {
  const text = SIGN_IN_TEXT[locale];
  const [draft, setDraft] = useState<SignInDraft>({ username: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [Console, setConsole] = useState<ComponentType | null>(null);
  const [taken, setTaken] = useState(false);
  /** The field the operator was in when the console took over: the cursor stays in it. */
  const [focusedField, setFocusedField] = useState<string | null>(null);

  useEffect(() => {
    document.title = text.pageTitle;
    document.documentElement.lang = locale;
  }, [text, locale]);
  // The console's code comes while the operator types: not before, as running it is a long task (most of a second on
  // a busy machine) that would hold up the page's first input. A failure here is met again, and shown, on submit.
  useEffect(() => atFirstUse(() => void loadConsole().catch(() => undefined)), [loadConsole]);
  useEffect(
    () =>
      onDraftTaken(() => {
        const id = document.activeElement?.id;
        setFocusedField(id === 'username' || id === 'password' ? id : null);
        setTaken(true);
      }),
    [],
  );
  useEffect(() => {
    if (taken && focusedField) document.getElementById(focusedField)?.focus();
  }, [taken, focusedField]);

  const submit = () => {
    if (busy) return;
    setBusy(true);
    setFailed(false);
    loadConsole().then(
      (App) => {
        handDraft(draft);
        setConsole(() => App);
      },
      () => {
        setBusy(false);
        setFailed(true);
      },
    );
  };

  return (
    <>
      {Console && (
        // hidden until its form has the draft: the page never flashes a spinner between the two forms
        <div style={{ display: taken ? 'contents' : 'none' }}>
          <Console />
        </div>
      )}
      {!taken && (
        <AuthFrameView text={text} variant={variant}>
          <SignInView
            text={text}
            title={variant === 'centered' ? text.welcomeBack : text.title}
            draft={draft}
            onDraft={setDraft}
            onSubmit={submit}
            busy={busy}
            error={failed ? LOAD_FAILED[locale] : null}
            // a page load of its own: the console starts there (its code is cached by then)
            forgotLink={<a href="/forgot-password">{text.forgotPassword}</a>}
          />
        </AuthFrameView>
      )}
    </>
  );
}
