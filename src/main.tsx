// the sign-in page's own small sheet, made by the build (src/signin/signinCss.ts); the console's full sheets come with
// its code (./signin/mountConsole.tsx)
import 'virtual:signin.css';
import type { LoadConsole, MountConsole } from './signin/SignInPage';
import { signInPageVariant } from './signin/variant';
import { rememberedLocale } from './signin/strings';
import { opensOnDashboard, startEarlyReads } from './api/early';
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
        void app.startConsole().then(() => mountConsole(host, app.App, app.openingScreenRead)),
  );
}
/** Issue 48: the browser's time zone data is loaded by the first formatter given a zone, and the console's modules
 *  make theirs as they are evaluated (date-fns-tz's probe, the display zone): tens of milliseconds inside that one
 *  long task. Made here instead, in a task of its own while the console's code is on its way; */
function loadTimeZoneData(): void {
  // and the tab's storage (the visited views the tab bar restores): a page's first use of sessionStorage waits for the
  // browser process to open it, which a profile at load 4 showed as 40 ms inside the system's start
  try {
    void sessionStorage.length;
  } catch {
    // storage refused (a privacy setting): the console reads none either
  }
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
  // issue 48: what the opening screen waits for is asked early (src/api/early.ts): the session's check now, while the
  // console's code is on its way, the dashboard's figures and handover once that code is in (on the embedded database
  // their queries hold the server's one thread, and the console's chunk asked beside them was sent after them); and
  // the dashboard's own chunk with the console's, not once the console's modules have run
  const token = localStorage.getItem(STORAGE.jwt);
  const code = loadConsole();
  if (token) startEarlyReads(window.location.pathname, token, code);
  if (token && opensOnDashboard(window.location.pathname)) void import('./screens/general/DashboardScreen');
  void code.then((mount) => mount(root));
}
