// How a test starts the real server as a process of its own (the end-to-end run's servers, server/crash.test.ts,
// server/edge/outage.test.ts): node's arguments for it.
import { existsSync } from 'node:fs';

/**
 * The run's bundle of the server when `npm test` made one (scripts/serverBundle.mjs, in E2E_SERVER_BUNDLE: plain node,
 * about a third less processor time a start than through tsx, 6.4 against 9.5 s from a seeded template), else
 * server/main.ts through tsx (a test run by hand). Relative to the repository's root, the tests' working directory.
 */
export function serverProcessArgs(): string[] {
  const bundle = process.env.E2E_SERVER_BUNDLE;
  return bundle && existsSync(bundle) ? ['--enable-source-maps', bundle] : ['--import', 'tsx', 'server/main.ts'];
}
