// the light page's own small sheet, made by the build (src/signin/signinCss.ts); the console's full sheets come with
// its code (./signin/mountConsole.tsx)
import 'virtual:signin.css';
import { lightSignInVariant, startLightSignIn, type MountConsole } from './signin/LightSignIn';
import { rememberedLocale } from './signin/strings';

// Issue 30: the console's code (and React) is its own chunk. A cold load of the sign-in page with no stored session
// shows the light sign-in page (src/signin, plain markup, no React) at once and fetches the console at the operator's
// first use; any other load starts the console itself.
const root = document.getElementById('root')!;

let consoleCode: ReturnType<typeof loadConsoleCode> | null = null;
function loadConsoleCode(): Promise<MountConsole> {
  return Promise.all([
    import('./app/App').then(async (m) => {
      await m.consoleReady;
      return m.App;
    }),
    import('./signin/mountConsole'),
  ]).then(
    ([App, { mountConsole }]) =>
      (host: HTMLElement) =>
        mountConsole(host, App),
  );
}
/** The console, ready to mount once its code (and the icons it draws) are in; asked for once. */
const loadConsole = () =>
  (consoleCode ??= loadConsoleCode().catch((e: unknown) => {
    consoleCode = null; // a failed fetch is tried again next time
    throw e;
  }));

/** The light page's console: the console and its sign-in screen, which takes over from the light page. */
const loadSignInConsole = () => Promise.all([loadConsole(), import('./screens/auth/index')]).then(([mount]) => mount);

const variant = lightSignInVariant(window.location.pathname, localStorage, window.location.hash);
// The light page is drawn in a task of its own, after the document's parse: chromium lays the page out when the
// parse ends (Document::FinishedParsing), and a page already drawn by then made that one long task with this script
// and the first style match (issue 30: no task over 50 ms). Its style and layout come with the first frame.
if (variant) setTimeout(() => startLightSignIn(root, variant, rememberedLocale(), loadSignInConsole));
else void loadConsole().then((mount) => mount(root));
