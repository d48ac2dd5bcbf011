// the sign-in page's own small sheet, made by the build (src/signin/signinCss.ts); the console's full sheets come with
// its code (./signin/mountConsole.tsx)
import 'virtual:signin.css';
import type { LoadConsole, MountConsole } from './signin/SignInPage';
import { signInPageVariant } from './signin/variant';
import { rememberedLocale } from './signin/strings';
import { startEarlyReads } from './api/early';
import { STORAGE } from '../contract/constants';

// Issues 30 and 48: the console's code is its own chunk, and the sign-in page is another (React and the one sign-in
// form, src/signin/SignInPage.tsx). A cold load of the sign-in page with no stored session shows that page and fetches
// the console at the operator's first use; any other load starts the console itself.
const root = document.getElementById('root')!;

let consoleCode: Promise<MountConsole> | null = null;
function loadConsoleCode(): Promise<MountConsole> {
  setTimeout(loadTimeZoneData, 0);
  return Promise.all([
    import('./app/App').then(async (m) => {
      await m.consoleReady;
      return m;
    }),
    import('./signin/mountConsole'),
  ]).then(
    ([app, { mountConsole }]) =>
      (host: HTMLElement) =>
        // issue 48: the actor system starts in a task of its own, and the first render comes in the next
        void app.startConsole().then(() => mountConsole(host, app.App)),
  );
}
/** Issue 48: the browser's time zone data is loaded by the first formatter given a zone, and the console's modules
 *  make theirs as they are evaluated (date-fns-tz's probe, the display zone): tens of milliseconds inside that one
 *  long task. Made here instead, in a task of its own while the console's code is on its way. */
function loadTimeZoneData(): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, hour: '2-digit' }).format(0);
    new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: '2-digit' }).format(0);
  } catch {
    // a browser without time zones: the console's own formatters say so
  }
}

/** The console, ready to mount once its code (and the icons it draws) are in; asked for once. */
const loadConsole = () =>
  (consoleCode ??= loadConsoleCode().catch((e: unknown) => {
    consoleCode = null; // a failed fetch is tried again next time
    throw e;
  }));

/** The sign-in page's console: the console and its sign-in screen, which takes over from the page. */
const loadSignInConsole: LoadConsole = () => Promise.all([loadConsole(), import('./screens/auth/index')]).then(([mount]) => mount);

const variant = signInPageVariant(window.location.pathname, localStorage, window.location.hash);
if (variant) void import('./signin/SignInPage').then((m) => m.startSignInPage(root, variant, rememberedLocale(), loadSignInConsole));
else {
  // issue 48: what the opening screen waits for is asked now, while the console's code is on its way (src/api/early.ts)
  const token = localStorage.getItem(STORAGE.jwt);
  if (token) startEarlyReads(window.location.pathname, token);
  void loadConsole().then((mount) => mount(root));
}
