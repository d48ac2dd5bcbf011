// Playwright's global setup: one server started and stopped before the workers start, so that its database (migrated,
// the demo data seeded) is the copy every server of the run on the embedded database starts from (e2e/server.ts).
// `npm test` seeds it beforehand, beside the server suite's PostgreSQL step (e2e/seedTemplate.ts, scripts/test.mjs),
// and hands it over in E2E_SEEDED_TEMPLATE; then it is used as it is, and removed at the end all the same.
import { existsSync, rmSync } from 'node:fs';
import { ownServer, TEMPLATE_ENV } from './server';

/** A server started on a fresh database and stopped (SIGTERM: closed cleanly, so it can be copied): its data directory. */
export async function seedTemplate(): Promise<string> {
  const template = await ownServer('template');
  await template.close();
  return template.dataDir;
}

/** The seeded template's directories: its database, its audit witness, its backups. */
export function removeTemplate(dataDir: string): void {
  for (const dir of [dataDir, `${dataDir}-witness`, `${dataDir}-backups`]) rmSync(dir, { recursive: true, force: true });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const ready = process.env[TEMPLATE_ENV];
  const dataDir = ready && existsSync(ready) && existsSync(`${ready}-witness`) ? ready : await seedTemplate();
  process.env[TEMPLATE_ENV] = dataDir; // the workers start after this, with this environment
  return async () => {
    delete process.env[TEMPLATE_ENV];
    removeTemplate(dataDir);
  };
}
