// vitest's global setup: the server tests' database is migrated and seeded once per run (server/testkit.ts).
import { prepareTestDatabases } from './testkit';

export default async function setup(): Promise<() => Promise<void>> {
  return prepareTestDatabases();
}
