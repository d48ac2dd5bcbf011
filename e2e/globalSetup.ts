// Playwright's global setup: one server started and stopped before the workers start, so that its database (migrated,
// the demo data seeded) is the copy every server of the run on the embedded database starts from (e2e/server.ts).
import { rmSync } from 'node:fs';
import { ownServer, TEMPLATE_ENV } from './server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const template = await ownServer('template');
  await template.close();
  process.env[TEMPLATE_ENV] = template.dataDir; // the workers start after this, with this environment
  return async () => {
    delete process.env[TEMPLATE_ENV];
    for (const dir of [template.dataDir, `${template.dataDir}-witness`, `${template.dataDir}-backups`]) rmSync(dir, { recursive: true, force: true });
  };
}
