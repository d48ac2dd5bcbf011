import { defineConfig } from '@playwright/test';

// One real server on a free port with a fresh embedded database, serving the built console (dist/).
const port = Number(process.env.E2E_PORT ?? 18000 + Math.floor(Math.random() * 2000));
process.env.E2E_PORT = String(port); // workers re-evaluate this file: keep the port stable
const dataDir = `.tmp/e2e-data-${port}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  // two server processes over PostgreSQL and the RabbitMQ relay: only where both exist (.ci/run starts them)
  testIgnore: process.env.TEST_DATABASE_URL && process.env.STOMP_RELAY_TEST_URL ? [] : ['**/scaleout.spec.ts'],
  // generous waits: a 2-core machine shared with builds can take seconds to paint a screen; a passing test never waits them out
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  webServer: {
    // E2E_DIST lets parallel work build and test its own console copy (vite build --outDir …)
    command: `rm -rf ${dataDir} && npx tsx server/main.ts`,
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: { PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: process.env.E2E_DIST ?? '', HOST: '127.0.0.1', DATABASE_URL: '', E2E: '1', SIMULATOR_RATE: '0', RATE_LIMIT_MAX: '100000', DOOR_MOMENTARY_MS: '120000' },
  },
});
