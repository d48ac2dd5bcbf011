import type { ReactNode } from 'react';
import { AuthFrameView, type AuthVariant } from '../../signin/SignInView';
import { useLocale } from '../../i18n';
import { signInText } from './signInText';

/** The frame of the no-layout screens: brand panel and a card. `variant` gives /login-remake its look. The light
 *  sign-in page draws the same frame (src/signin/SignInView.tsx). */
export function AuthFrame({ children, variant = 'split' }: { children: ReactNode; variant?: AuthVariant }) {
  useLocale(); // the frame follows the language
  return (
    <AuthFrameView text={signInText()} variant={variant}>
      {children}
    </AuthFrameView>
  );
}
