// The integrators' client (issue 48): its types are what `npm run api:client` makes of this build's API description
// (a route added or changed without regenerating fails here), they compile with the calls below (the project's
// typecheck includes clients/), and a call through it reaches the real server and reads its answer and its refusal.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/testkit';
import { clientFiles } from './generate';
import { gatehouseClient } from './index';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('the TypeScript client', () => {
  it('is generated from the API description as the routes make it now', async () => {
    const written = readFileSync(join(import.meta.dirname, 'schema.ts'), 'utf8');
    // the test server's routes are the build's (scripts/apiClient.ts asks a server of its own: server/openapi/document.ts)
    const fresh = (await clientFiles(JSON.parse(JSON.stringify(s.app.swagger()))))['schema.ts'];
    // (`npm run api:client` writes it again)
    expect(written === fresh, 'clients/typescript/schema.ts is stale: run npm run api:client').toBe(true);
  }, 60_000);

  it('calls the server with a session token: the answer typed as the document says, a refusal with its violations', async () => {
    const token = await s.loginTo('admin', 'HARBOUR');
    const gh = gatehouseClient({ baseUrl: s.base, token });
    const me = await gh.GET('/idp/1.0/me');
    expect(me.response.status).toBe(200);
    const username: string | undefined = me.data?.user.username;
    expect(username).toBe('admin');

    const doors = await gh.GET('/event/manage/doors');
    const names: string[] = (doors.data?.items ?? []).map((d) => d.name);
    expect(names.length).toBeGreaterThan(0);

    const refused = await gh.POST('/event/manage/doors/lockdown', { body: { on: 'yes' as unknown as boolean } });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.violations?.map((v) => v.field)).toEqual(['on']);
  });

  it('is refused without a token or key, as the API is', async () => {
    const r = await gatehouseClient({ baseUrl: s.base }).GET('/event/manage/doors');
    expect(r.response.status).toBe(401);
  });
});
