// The routes' JSON schemas made once per process (./jsonSchema.ts jsonSchemaOf): two server builds are given the same
// body and query schema objects, equal to what the contract's structs make now (nothing Fastify, its validation or
// @fastify/swagger does with them changes them for the next build), frozen, and the two builds describe the API alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CATALOGUE, apiPaths, inputSchema, listQuerySchema, recordActionBody, rowSchema } from '../../contract';
import { buildServer } from '../app';
import { startTestServer, type TestServer } from '../testkit';
import { OPENAPI_JSON, isApiRoute, routeDoc } from './index';
import { toJsonSchema, type JsonSchema } from './jsonSchema';

interface Built {
  app: FastifyInstance & { routes: Array<{ method: string; url: string; config?: unknown }> };
  /** The schema Fastify holds for each API route that declares a body or a query ('METHOD /path'), as a request sees it. */
  given: Map<string, { body?: JsonSchema; querystring?: JsonSchema }>;
  document: Record<string, unknown>;
}

let s: TestServer;
let token: string;
const builds: Built[] = [];
type Route = Parameters<typeof routeDoc>[0];

/** A server over the test server's database, asked once on each route that declares a body or a query. */
async function build(): Promise<Built> {
  const app = (await buildServer({ db: s.db, jwtSecret: 'test-secret-of-enough-length', staticDir: null, webhooks: false })) as Built['app'];
  const given: Built['given'] = new Map();
  // the schema a route was registered with, as Fastify keeps it (its validators were compiled from it when it got ready)
  app.addHook('onResponse', async (req) => {
    given.set(`${req.routeOptions.method} ${req.routeOptions.url}`, (req.routeOptions.schema ?? {}) as { body?: JsonSchema; querystring?: JsonSchema });
  });
  await app.ready();
  for (const r of app.routes) {
    const doc = routeDoc(r as Route);
    if (isApiRoute(r.url) && (doc.body || doc.query)) await app.inject({ method: r.method as 'GET', url: r.url.replace(/:[A-Za-z0-9_]+/g, '1') });
  }
  // Fastify's validation with them: a body and a query string refused by the routes' structs
  const doors = apiPaths(CATALOGUE.find((d) => d.name === 'doors')!);
  const authorization = `Bearer ${token}`;
  expect((await app.inject({ method: 'POST', url: doors.list, headers: { authorization }, payload: { name: 7 } })).statusCode).toBe(400);
  expect((await app.inject({ method: 'GET', url: `${doors.list}?page=x`, headers: { authorization } })).statusCode).toBe(400);
  // the document, made from the same schemas
  const r = await app.inject({ method: 'GET', url: OPENAPI_JSON });
  expect(r.statusCode).toBe(200);
  return { app, given, document: r.json() };
}

beforeAll(async () => {
  s = await startTestServer();
  token = await s.loginTo('admin', 'NORTHWIND');
  builds.push(await build(), await build());
}, 120_000);
afterAll(async () => {
  for (const b of builds) await b.app.close();
  await s?.close();
});

describe("the routes' JSON schemas", () => {
  it('are the same objects in every server build, frozen', () => {
    const [a, b] = builds;
    expect([...b.given.keys()]).toEqual([...a.given.keys()]);
    let bodies = 0;
    let queries = 0;
    for (const [key, schema] of a.given) {
      const other = b.given.get(key)!;
      for (const part of ['body', 'querystring'] as const) {
        if (!schema[part]) continue;
        expect(other[part], `${key} ${part}`).toBe(schema[part]);
        expect(Object.isFrozen(schema[part]), `${key} ${part}`).toBe(true);
        if (part === 'body') bodies++;
        else queries++;
      }
    }
    // the catalogue's bodies and list queries among them (one struct per declaration: contract/resources/derive.ts)
    expect(bodies).toBeGreaterThan(150);
    expect(queries).toBeGreaterThan(100);
  });

  it('are what the structs make, unchanged by the builds, their validation and their documents', () => {
    const [a] = builds;
    let checked = 0;
    for (const route of a.app.routes.filter((r) => isApiRoute(r.url))) {
      const doc = routeDoc(route as Route);
      const given = a.given.get(`${route.method} ${route.url}`) ?? {};
      if (doc.body) {
        expect(given.body, `${route.method} ${route.url}`).toEqual(toJsonSchema(doc.body));
        checked++;
      }
      if (doc.query && given.querystring?.type === 'object') {
        expect(given.querystring, `${route.method} ${route.url}`).toEqual(toJsonSchema(doc.query));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(250);
  });

  it('describe the API alike in both builds', () => {
    expect(builds[1].document).toEqual(builds[0].document);
  });

  it("are made once per declaration: the catalogue's structs are the same objects each time they are asked", () => {
    for (const d of CATALOGUE) {
      expect(inputSchema(d), d.name).toBe(inputSchema(d));
      expect(rowSchema(d), d.name).toBe(rowSchema(d));
      expect(listQuerySchema(d), d.name).toBe(listQuerySchema(d));
      for (const a of d.screens?.recordActions ?? []) expect(recordActionBody(a), `${d.name} ${a.action}`).toBe(recordActionBody(a));
    }
  });
});
