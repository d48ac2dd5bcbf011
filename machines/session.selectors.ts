// What views read from the session actor: the smallest slices, named and tested.
import { heldPrivilegeIds, resolveTimeZone, type DisplayLocale, type IamProvider, type PrivilegeEntry } from '../contract';
import type { SessionSnapshot } from './session';

export const selectUser = (s: SessionSnapshot) => s.context.user;
/** Issue 50: the member of staff the signed-in operator is in the selected client, or null. */
export const selectOwnIdentity = (s: SessionSnapshot): number | null => s.context.user?.identityId ?? null;
export const selectIsSignedIn = (s: SessionSnapshot) => s.hasTag('signedIn');
export const selectIsRestoring = (s: SessionSnapshot) => s.matches('restoring');
export const selectPrivilegeEntries = (s: SessionSnapshot) => s.context.privileges;
export const selectClientId = (s: SessionSnapshot) => s.context.user?.clientId ?? null;
export const selectSettings = (s: SessionSnapshot) => s.context.settings;
/** Issue 10: the console's language, kept with the user's settings. */
export const selectLocale = (s: SessionSnapshot): DisplayLocale => s.context.settings.locale;
/**
 * Issue 10: the one zone every screen shows time in: the profile's, else the selected client's, else `browser`
 * (the runtime's own zone, passed in so the selector stays pure).
 */
export const selectDisplayZone = (s: SessionSnapshot, browser?: string): string =>
  resolveTimeZone(s.context.user?.timezone, s.context.user?.clientTimezone, browser);
/** The selected client's (tenant's) own zone, where its calendar days are (a visit's day, today's rule); null
 *  without a client. */
export const selectClientZone = (s: SessionSnapshot): string | null => s.context.user?.clientTimezone ?? null;
// issue 29's phone placeholder is ./phone.selectors': its libraries load with the forms that show it, not at start
export const selectSignInError = (s: SessionSnapshot) => s.context.error;
export const selectNotice = (s: SessionSnapshot) => s.context.notice;
const NO_PROVIDERS: readonly IamProvider[] = [];
/** Issue 49: the identity providers the sign-in page offers (none until the server said). */
export const selectIamProviders = (s: SessionSnapshot): readonly IamProvider[] => s.context.iamProviders ?? NO_PROVIDERS;
export const selectRedirect = (s: SessionSnapshot) => s.context.redirect;
/** The last session was ended by its operator (sign-out): the login page carries no return address then. */
export const selectSignedOutOnPurpose = (s: SessionSnapshot) => !s.hasTag('signedIn') && s.context.endedBy === 'signOut';
export const selectIsBusy = (s: SessionSnapshot) => s.hasTag('busy');
export const selectToken = (s: SessionSnapshot) => s.context.token;
export const selectLoginMode = (s: SessionSnapshot) => s.context.loginMode;

const heldCache = new WeakMap<readonly PrivilegeEntry[], Set<string>>();
/** Held privilege ids; the same Set for the same privileges array, so useSelector does not re-render. */
export const selectHeldPrivileges = (s: SessionSnapshot): Set<string> => {
  const entries = s.context.privileges;
  let held = heldCache.get(entries);
  if (!held) {
    held = heldPrivilegeIds(entries);
    heldCache.set(entries, held);
  }
  return held;
};
