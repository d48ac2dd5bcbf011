import { existsSync } from 'node:fs';

// The browser the end-to-end tests and the browser benchmarks drive: Debian's chromium-headless-shell (the old
// headless mode, as Playwright's own bundled browser uses for headless runs) when installed, else the full browser in
// its new headless mode. CHROMIUM_PATH chooses another; .ci/run installs the package.
//   - Tests: the full browser costs about a third more processor time per test (three spec files: 46 s + 18 s of
//     processor against 33 s + 13 s, and the end-to-end run is bound by the processor).
//   - Benchmarks: each cold load opens a window of a fresh context, and the full browser builds that window's own
//     interface with it (its omnibox popup is a WebUI page in a renderer of its own): a traced load had 560 ms of
//     processor in that renderer and 130 ms more in the browser's main thread, inside a 1 s load on two cores. That is
//     the harness's cost, not the page's: a user's browser opens the page in a window whose interface is up already.
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
