// The API description (issue 48): generated from the route table, a valid OpenAPI 3.1 document, every API route in it
// with its path parameters and tag, the catalogue's bodies and queries converted from the contract's structs (the ones
// the routes validate with), and a refused body still answering 400 with violations naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { API, BulkDeleteRequest, CATALOGUE, ListQuery, apiPaths, inputSchema } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { OPENAPI_DOCS, OPENAPI_JSON, isApiRoute } from './index';
import { toJsonSchema } from './jsonSchema';

let s: TestServer;
let doc: { openapi: string; paths: Record<string, Record<string, any>> };
beforeAll(async () => {
  s = await startTestServer();
  const r = await s.call('GET', OPENAPI_JSON); // no token: the description is open
  expect(r.status).toBe(200);
  doc = r.body;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** `/event/manage/doors/:id` as the document writes it. */
const pathOf = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const apiRoutes = () => s.app.routes.filter((r) => isApiRoute(r.url) && r.method !== 'HEAD' && r.url !== OPENAPI_JSON);

describe('the API description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every API route of the route table, with its tag and path parameters', () => {
    expect(apiRoutes().length).toBeGreaterThan(150);
    const missing: string[] = [];
    for (const r of apiRoutes()) {
      const op = doc.paths[pathOf(r.url)]?.[r.method.toLowerCase()];
      if (!op || !op.tags?.length) {
        missing.push(`${r.method} ${r.url}`);
        continue;
      }
      const params = [...r.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort();
      const documented = (op.parameters ?? [])
        .filter((p: { in: string }) => p.in === 'path')
        .map((p: { name: string }) => p.name)
        .sort();
      if (JSON.stringify(params) !== JSON.stringify(documented)) missing.push(`${r.method} ${r.url}: path parameters ${documented} for ${params}`);
    }
    expect(missing).toEqual([]);
  });

  it("gives each catalogue route the body and query of the contract's structs it validates with", () => {
    let checked = 0;
    let lists = 0;
    for (const d of CATALOGUE) {
      const paths = apiPaths(d);
      const add = doc.paths[pathOf(paths.list)]?.post;
      // (a few resources add through a route of their own: server/resources)
      if (add?.requestBody) {
        expect(add.requestBody.content['application/json'].schema, d.name).toEqual(toJsonSchema(inputSchema(d)));
        checked++;
      }
      const edit = doc.paths[pathOf(paths.one)]?.put;
      if (edit?.requestBody) expect(edit.requestBody.content['application/json'].schema, d.name).toEqual(toJsonSchema(inputSchema(d)));
      const bulk = doc.paths[pathOf(paths.bulkDelete)]?.post;
      if (bulk?.requestBody) expect(bulk.requestBody.content['application/json'].schema).toEqual(toJsonSchema(BulkDeleteRequest));
      const list = doc.paths[pathOf(paths.list)]?.get;
      if (list?.parameters?.some((p: { in: string; name: string }) => p.in === 'query' && p.name === 'page')) lists++;
    }
    expect(checked).toBeGreaterThan(20);
    expect(lists).toBeGreaterThan(20);
    expect(Object.keys(toJsonSchema(ListQuery).properties as object)).toContain('size');
  });

  it('is open to read, with a reference page; the API it describes is not', async () => {
    expect((await s.call('GET', `${OPENAPI_DOCS}/`)).status).toBe(200);
    expect((await s.call('GET', API.identities)).status).toBe(401);
  });

  it('leaves validation to the contract: a refused body answers 400 with violations naming the field, and keeps every field it answers', async () => {
    const token = await s.loginTo('admin', 'HARBOUR');
    const bad = await s.call('POST', API.identities, { token, body: { firstName: 42 } });
    expect(bad.status).toBe(400);
    expect((bad.body as { violations: Array<{ field: string }> }).violations.map((v) => v.field)).toContain('firstName');
    const me = await s.call('GET', API.me, { token });
    expect(me.status).toBe(200);
    expect(Object.keys(me.body as object)).toEqual(expect.arrayContaining(['user', 'privileges']));
  });
});
