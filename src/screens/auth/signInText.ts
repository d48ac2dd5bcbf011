// The sign-in page's words from the console's dictionaries (src/i18n), in the shape the shared SignInView takes. The
// light sign-in page carries the same words in a table of its own (src/signin/strings.ts; its test compares the two).
import type { SignInText } from '../../signin/strings';
import { t, tRoute, tx, type Locale } from '../../i18n';

export function signInText(loc?: Locale): SignInText {
  return {
    brand: tx('Gatehouse', undefined, loc),
    pitch: tx('Access, security and attendance in one console.', undefined, loc),
    doors: tx('Doors, controllers and readers, live', undefined, loc),
    identities: tx('Identities, credentials and access groups', undefined, loc),
    attendance: tx('Time and attendance, visitors and reports', undefined, loc),
    // the /login title is the same in every language
    title: 'Sign in to Gatehouse',
    welcomeBack: tx('Welcome back', undefined, loc),
    sub: tx('Use your operator account.', undefined, loc),
    formLabel: tx('Sign in', undefined, loc),
    username: t('username', loc),
    password: t('password', loc),
    forgotPassword: t('forgotPassword', loc),
    signIn: t('signIn', loc),
    pageTitle: `${tRoute('/login', 'Sign in', loc)} · Gatehouse`,
  };
}
