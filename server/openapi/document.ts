// The API description as a file, without a port: a server over an empty embedded database, built, asked for its
// document and closed (scripts/apiClient.ts writes the integrators' client from it; its test compares).
import { buildServer } from '../app';
import { openPglite } from '../db/db';
import { migrate } from '../db/migrate';

/** The OpenAPI document /api/openapi.json serves, as the routes of this build describe it. */
export async function apiDocument(): Promise<Record<string, unknown>> {
  const db = await openPglite('memory://');
  try {
    await migrate(db);
    const app = await buildServer({ db, jwtSecret: 'document-only-secret-of-enough-length', staticDir: null });
    try {
      await app.ready();
      return JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}
