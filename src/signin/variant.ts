// Which sign-in page a cold load shows, if any: in the entry chunk (src/main.tsx), which decides before it fetches
// either the sign-in chunk (./SignInPage.tsx) or the console's.
import { STORAGE } from '../../contract/constants';
import type { AuthVariant } from './SignInView';

/** The paths the sign-in page of a cold load stands in for, with their look (each a route that hands over: RouteDef.handsOver). */
const PAGE_PATHS: Record<string, AuthVariant> = { '/login': 'split', '/login-remake': 'centered' };

/** The paths a sign-in page stands in for: the console is mounted on their sign-in screen to take its form over. */
export const SIGN_IN_PAGE_PATHS: readonly string[] = Object.keys(PAGE_PATHS);

/** The sign-in page's look for a cold load of `path`, or null when the console itself is to start (another path, or a
 *  session stored: that console restores it, as a reload does). */
export function signInPageVariant(path: string, storage: Pick<Storage, 'getItem'>, hash = ''): AuthVariant | null {
  const variant = PAGE_PATHS[path];
  // issue 49: back from an identity provider's sign-in (`#iam=…`): the console exchanges its ticket
  if (!variant || hash.startsWith('#iam=')) return null;
  try {
    return storage.getItem(STORAGE.jwt) ? null : variant;
  } catch {
    return null;
  }
}
