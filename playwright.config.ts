import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';

// Spec files run on E2E_WORKERS Playwright workers side by side; each worker starts a real server of its own on a free
// port with a fresh embedded database and the demo data, serving the built console (dist/, or E2E_DIST), and its specs
// use it as baseURL (e2e/fixtures.ts). One server per worker keeps a spec from seeing another worker's changes; the
// specs of one worker run one after another. By default one worker per two cores: a worker keeps a server and a
// chromium busy, and on this 2-core machine two workers ran each test twice as long (CI: 17.7 minutes against 17.9).
const workers = Math.max(1, Number(process.env.E2E_WORKERS) || Math.floor(availableParallelism() / 2));

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // two server processes over PostgreSQL and the RabbitMQ relay: only where both exist (.ci/run starts them)
  testIgnore: process.env.TEST_DATABASE_URL && process.env.STOMP_RELAY_TEST_URL ? [] : ['**/scaleout.spec.ts'],
  // generous waits: a 2-core machine shared with builds can take seconds to paint a screen; a passing test never waits them out
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/e2e',
  use: {
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
