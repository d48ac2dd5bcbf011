// The console on screen: React, the console's stylesheets and its root component in an element. Both ways in come
// here (src/main.tsx): a load with a stored session at once, the sign-in page (./SignInPage.tsx) on submit.
// The stylesheets come with this chunk, not with the sign-in page, whose own small sheet (./signinCss.ts, made by the
// build) is all it needs.
import { startTransition, StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { unstable_forceFrameRate } from 'scheduler';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/table/lib/css/table.css';
import '../styles/icon-fonts.css';
import '../styles/app.css';
import '../styles/shift.css';

/** The slices of the console's first render: 25 ms (React's own are 5 ms), until its opening screen is read. */
export const OPENING_RENDER_FPS = 40;

/** `opened` settles when the opening screen is read (src/system/openingScreen.ts): then React's own slices again. */
export function mountConsole(host: HTMLElement, App: ComponentType, opened: Promise<unknown> = Promise.resolve()): void {
  const root = createRoot(host);
  // Issue 48: a transition: React renders the console in slices that yield to the browser, so its first render (the
  // shell, the screen, and React compiling its own code on first calls) is not one long task (none over 50 ms). With
  // React's 5 ms slices the cold dashboard's render was 15–18 tasks on 2 cores, each a yield and a wait for the
  // processor again; 25 ms ones make it 6–8, still far under 50 ms each. Afterwards a click waits 5 ms at most again.
  unstable_forceFrameRate(OPENING_RENDER_FPS);
  void opened.finally(() => unstable_forceFrameRate(0));
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
