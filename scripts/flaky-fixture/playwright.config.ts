// Only for scripts/flaky.test.ts: a real Playwright run with one retry, one test that passes on it and one that
// passes at once, so the reader of the JSON report is held to what Playwright really writes.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.fixture.ts',
  retries: 1,
  workers: 1,
  reporter: [['json', { outputFile: process.env.FLAKY_REPORT ?? 'report.json' }]],
});
