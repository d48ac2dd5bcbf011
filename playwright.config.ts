import { existsSync, statfsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

// Spec files run on E2E_WORKERS Playwright workers side by side; each worker starts a real server of its own on a free
// port with a fresh embedded database and the demo data, serving the built console (dist/, or E2E_DIST), and its specs
// use it as baseURL (e2e/fixtures.ts). One server per worker keeps a spec from seeing another worker's changes; the
// specs of one worker run one after another. Two workers at least, one per two cores beyond: a test is mostly waiting
// (for the console to boot, a request, a poll of an assertion), so one worker left the 2 cores of this machine about
// half idle: the whole suite took 11.4 minutes on one worker and 7.1 on two, 128 passed both times (2026-11-28, a
// helper's benchmarks running beside it). On a slower, busier machine two measured the same as one (17.7 against
// 17.9 minutes), never slower.
const workers = Math.max(1, Number(process.env.E2E_WORKERS) || Math.max(2, Math.floor(availableParallelism() / 2)));

// chromium keeps its shared memory in /dev/shm; where that is small (a container's 64 MB) it must use /tmp instead,
// which costs system time on every frame, so only there
const smallShm = (() => {
  try {
    const s = statfsSync('/dev/shm');
    return s.blocks * s.bsize < 1024 ** 3;
  } catch {
    return true;
  }
})();

// The browser the end-to-end tests and the browser benchmarks drive: Debian's chromium-headless-shell (the old
// headless mode, as Playwright's own bundled browser uses for headless runs) when installed, else the full browser in
// its new headless mode. CHROMIUM_PATH chooses another; .ci/run installs the package.
//   - Tests: the full browser costs about a third more processor time per test (three spec files: 46 s + 18 s of
//     processor against 33 s + 13 s, and the end-to-end run is bound by the processor).
//   - Benchmarks: each cold load opens a window of a fresh context, and the full browser builds that window's own
//     interface with it (its omnibox popup is a WebUI page in a renderer of its own): a traced load had 560 ms of
//     processor in that renderer and 130 ms more in the browser's main thread, inside a 1 s load on two cores. That is
//     the harness's cost, not the page's: a user's browser opens the page in a window whose interface is up already.
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // one server seeded before the workers start: each server of the run starts from a copy of its database
  globalSetup: './e2e/globalSetup.ts',
  // two server processes over PostgreSQL and the RabbitMQ relay: only where both exist (.ci/run starts them); in CI
  // always, and it fails there when either is missing instead of dropping out
  testIgnore: (process.env.TEST_DATABASE_URL && process.env.STOMP_RELAY_TEST_URL) || process.env.CI ? [] : ['**/scaleout.spec.ts'],
  // a committed test.only would cut the run to one test, green: CI refuses it (ESLint refuses it everywhere)
  forbidOnly: !!process.env.CI,
  // generous waits: a 2-core machine shared with builds can take seconds to paint a screen; a passing test never waits them out
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers,
  // once in CI only: a flake cannot throw away a session's work, and scripts/test.mjs names every test that needed its
  // retry (a `flaky:` line and test-results/flaky.txt), to be fixed at its cause. Twice failed fails CI.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/e2e',
  use: {
    screenshot: 'only-on-failure',
    // recording a trace costs a fifth of every test's time (DOM snapshots and a screencast at every action: three
    // specs took 73 s with it, 58 s without), so CI records one only for a test's retry, which is where a failure is
    // read; a run on a developer's machine (no retry) keeps the trace of any test that fails
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        ...(smallShm ? ['--disable-dev-shm-usage'] : []),
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    // the operators' consoles under test ask for reduced motion: no transition to wait out before a click, no spinner
    // repainting 60 times a second on 2 shared cores (src/styles/app.css honours it). With the shared memory where
    // it belongs, ten spec files took 149 s instead of 165 s.
    reducedMotion: 'reduce',
  },
});
