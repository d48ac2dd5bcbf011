// The sign-in form shared by /login and /login-remake. It sends session.signIn; the session actor decides.
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import {
  selectClientId,
  selectHeldPrivileges,
  selectIamProviders,
  selectIsBusy,
  selectIsSignedIn,
  selectNotice,
  selectRedirect,
  selectSignInError,
} from '../../../machines/session.selectors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { landingPath } from '../../app/guard';
import { say, useLocale } from '../../i18n';
import { peekHandedDraft, takeHandedDraft } from '../../signin/handover';
import { safeRedirect } from '../../signin/redirect';
import { SignInView, type SignInDraft } from '../../signin/SignInView';
import { SIGN_IN_TEXT } from '../../signin/strings';
import { selectMfaActor } from '../../../machines/session.mfa.selectors';
import { SecondStep } from './SecondStep';

export { safeRedirect };

/** Issue 49: this browser can sign in with a passkey (WebAuthn); without it the page offers no passkey button. */
const PASSKEYS = typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export function SignInForm({ title = 'Sign in to Gatehouse' }: { title?: string }) {
  const locale = useLocale(); // the form follows the language
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
  const providers = useSelector(session, selectIamProviders);
  // visual: the form's draft until it is submitted; the sign-in page of a cold load (src/signin) may have handed one over
  const [draft, setDraft] = useState<SignInDraft>(() => peekHandedDraft() ?? { username: '', password: '' });
  const redirectAsked = safeRedirect(query.get('redirect')) ?? undefined;
  const signIn = (d: SignInDraft) => session.send({ type: 'session.signIn', username: d.username, password: d.password, redirect: redirectAsked });

  // issue 49: which identity providers the server offers ("Sign in with <provider>"): the session asks once a load
  useEffect(() => {
    session.send({ type: 'session.iamProvidersWanted' });
  }, [session]);

  // The sign-in page's submit, sent as this form's own: the session decides as for any sign-in.
  useEffect(() => {
    const handed = takeHandedDraft();
    if (handed?.passkey) session.send({ type: 'session.passkeySignIn', redirect: redirectAsked });
    else if (handed) signIn(handed);
    // once, when the form first shows
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The session actor decided whose return address this is (issue 10): the query's address travelled with the
  // sign-in request, and is dropped when another user signs in. Only a page this user may open is followed.
  const landed = useRef(false); // visual: this sign-in has opened its page already (navigation once)
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

  // issue 49: the password was right and a second step is asked for (or the enrolment the client requires)
  const mfa = useSelector(session, selectMfaActor);
  const text = SIGN_IN_TEXT[locale];
  if (mfa) return <SecondStep mfa={mfa} />;
  return (
    <SignInView
      text={text}
      title={title}
      draft={draft}
      onDraft={(next) => {
        if (notice && next.username !== draft.username) session.send({ type: 'session.noticeDismissed' });
        setDraft(next);
      }}
      onSubmit={() => signIn(draft)}
      busy={busy}
      error={error === null ? null : say(error, locale)}
      notice={notice}
      forgotLink={<Link to="/forgot-password">{text.forgotPassword}</Link>}
      providers={providers.map((p) => ({ key: p.key, name: p.name, href: p.start }))}
      onProvider={(provider) => session.send({ type: 'session.iamStart', provider, redirect: redirectAsked })}
      onPasskey={PASSKEYS ? () => session.send({ type: 'session.passkeySignIn', redirect: redirectAsked }) : undefined}
    />
  );
}
