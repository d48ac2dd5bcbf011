import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/table/lib/css/table.css';
import './styles/icon-fonts.css';
import './styles/app.css';
import './styles/shift.css';
import { LightSignIn, lightSignInVariant } from './signin/LightSignIn';
import { rememberedLocale } from './signin/strings';

// Issue 30: the console's code is its own chunk. A cold load of the sign-in page with no stored session shows the light
// sign-in page (src/signin) at once and fetches the console meanwhile; any other load starts the console itself.
const root = createRoot(document.getElementById('root')!);

let consoleCode: ReturnType<typeof loadConsoleCode> | null = null;
function loadConsoleCode() {
  return import('./app/App').then(async (m) => {
    await m.consoleReady;
    return m.App;
  });
}
/** The console's root component once its code (and the icons it draws) are in; asked for once. */
const loadConsole = () =>
  (consoleCode ??= loadConsoleCode().catch((e: unknown) => {
    consoleCode = null; // a failed fetch is tried again next time
    throw e;
  }));

/** The light page's console: the console and its sign-in screen, which takes over from the light page. */
const loadSignInConsole = () => Promise.all([loadConsole(), import('./screens/auth/index')]).then(([App]) => App);

const variant = lightSignInVariant(window.location.pathname, localStorage);
if (variant) {
  root.render(
    <StrictMode>
      <LightSignIn variant={variant} locale={rememberedLocale()} loadConsole={loadSignInConsole} />
    </StrictMode>,
  );
} else {
  void loadConsole().then((App) =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
