// Every route group is a Fastify plugin of its own (issue 48): server/app.ts registers each group with app.register,
// so each is loaded in its own encapsulated context with the root's hooks (authentication, account scope, schema
// validation, error answers), and what a group adds stays in it. Read from the running server's route table, which
// records the plugin that declared each route (Fastify's pluginName of the route's context).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../contract';
import { startTestServer, type TestServer } from './testkit';
import { isApiRoute } from './openapi';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 120_000);
afterAll(async () => {
  await s?.close();
});

describe('route groups as plugins', () => {
  it('declares every API route inside a route group, none in the root context', () => {
    const api = s.app.routes.filter((r) => isApiRoute(r.url) && r.method !== 'HEAD');
    expect(api.length).toBeGreaterThan(200);
    const root = s.app.pluginName;
    const atRoot = api.filter((r) => r.group === root).map((r) => `${r.method} ${r.url}`);
    expect(atRoot).toEqual([]);
  });

  it('has the groups server/app.ts registers, each with its routes', () => {
    const groups = new Map<string, number>();
    for (const r of s.app.routes.filter((x) => isApiRoute(x.url) && x.method !== 'HEAD')) groups.set(r.group, (groups.get(r.group) ?? 0) + 1);
    // a few by name: the catalogue's routes, sign-in, the alarms' commands, the edge's readers, health
    const named = [...groups.keys()].join(' | ');
    for (const g of ['crudRoutes', 'authRoutes', 'alarmRoutes', 'alarmManagementRoutes', 'edgeReaderRoutes', 'healthRoutes', 'threatRoutes', 'auditRoutes'])
      expect(named, g).toContain(g);
    expect(groups.size).toBeGreaterThanOrEqual(25);
    expect(groups.get([...groups.keys()].find((g) => g.includes('healthRoutes'))!)).toBe(1);
  });

  it("keeps the root's authentication and error answers in every group: no token is 401 with a message, health is open", async () => {
    const health = await s.call('GET', API.health);
    expect(health.status).toBe(200);
    const closed = await s.call('GET', API.audit);
    expect(closed.status).toBe(401);
    expect(closed.body).toMatchObject({ message: expect.any(String) });
  });
});
