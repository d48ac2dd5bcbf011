// What every spec imports instead of '@playwright/test': the same API, with one server per Playwright worker.
// Two workers run spec files side by side (playwright.config.ts), each against a server and database of its own,
// started fresh with the demo data when the worker starts and stopped when it ends, so no spec sees another
// worker's changes. `baseURL` (and so `page.goto('/…')`, `request` and `browser.newContext()`) points at it.
import { test as base } from '@playwright/test';
import { ownServer, type OwnServer } from './server';

export * from '@playwright/test';

/** What the worker's server runs with beyond ownServer's own settings: a momentary unlock lasts two minutes. */
const WORKER_ENV = { DOOR_MOMENTARY_MS: '120000' };

export const test = base.extend<object, { server: OwnServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this destructuring
    async ({}, use, workerInfo) => {
      const server = await ownServer(`worker${workerInfo.parallelIndex}`, WORKER_ENV);
      await use(server);
      await server.dispose();
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ server }, use) => {
    await use(server.url);
  },
});
