// The console on screen: React, the console's stylesheets and its root component in an element. Both ways in come
// here (src/main.tsx): a load with a stored session at once, the sign-in page (./SignInPage.tsx) on submit.
// The stylesheets come with this chunk, not with the sign-in page, whose own small sheet (./signinCss.ts, made by the
// build) is all it needs.
import { startTransition, StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/table/lib/css/table.css';
import '../styles/icon-fonts.css';
import '../styles/app.css';
import '../styles/shift.css';

export function mountConsole(host: HTMLElement, App: ComponentType): void {
  const root = createRoot(host);
  // a transition: React renders the console in slices that yield to the browser, so its first render (the shell, the
  // screen, and React compiling its own code on first calls) is not one long task (issue 48: none over 50 ms)
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
