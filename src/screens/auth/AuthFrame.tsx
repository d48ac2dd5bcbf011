import type { ReactNode } from 'react';
import { AuthFrameView, type AuthVariant } from '../../signin/SignInView';
import { useLocale } from '../../i18n';
import { SIGN_IN_TEXT } from '../../signin/strings';

/** The frame of the no-layout screens: brand panel and a card. `variant` gives /login-remake its look. The sign-in
 *  page of a cold load draws the same frame (src/signin/SignInView.tsx). */
export function AuthFrame({ children, variant = 'split' }: { children: ReactNode; variant?: AuthVariant }) {
  const locale = useLocale(); // the frame follows the language
  return (
    <AuthFrameView text={SIGN_IN_TEXT[locale]} variant={variant}>
      {children}
    </AuthFrameView>
  );
}
