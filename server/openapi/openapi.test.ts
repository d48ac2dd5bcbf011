// The API description (issue 48): generated from the route table, a valid OpenAPI 3.1 document, every API route in it
// with its path parameters, tag, security, refusals and answer; the bodies and queries converted from the contract's
// structs the routes validate with (Fastify validates with them; a server without that validation shows each handler
// checks with the same struct: a body the document names differently fails),
// the answers the routes give passing the structs the document names, and a refused body still answering 400 with
// violations naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { Struct } from 'superstruct';
import { API, BulkDeleteRequest, CATALOGUE, ListQuery, Refusal, TENANT_HEADER, apiPaths, inputSchema, validate } from '../../contract';
import { startTestServer, type TestServer } from '../testkit';
import { routeBodySchemas } from '../http/kit';
import { OPENAPI_DOCS, OPENAPI_JSON, isApiRoute, routeDoc } from './index';
import { toJsonSchema } from './jsonSchema';
import { DECLARED } from './declared';

/** Routes whose answer the document leaves as any JSON value, each with its reason. */
const FREE_ANSWERS: Record<string, string> = {
  'GET /api/health': 'for load balancers: 200, or 503 saying what is wrong',
  'GET /idp/1.0/oidc/start': "a redirect to the identity provider's sign-in",
  'GET /idp/1.0/oidc/callback': 'a redirect back to the console with a ticket',
  'GET /idp/1.0/saml/start': "a redirect to the identity provider's sign-in",
  'POST /idp/1.0/saml/acs': "the identity provider's form post, answered with a redirect back to the console",
  'GET /idp/1.0/saml/metadata': "the service provider's SAML metadata (XML)",
  'POST /idp/1.0/saml/slo': "the identity provider's logout form post, answered with a redirect (to the sign-in page, or its LogoutResponse)",
  'GET /event/manage/events/export/progress': 'server-sent events (progress, then the file)',
  'GET /event/manage/identity-batch-upload/:id/import': "server-sent events of the import's progress",
  'GET /event/manage/audit/verify': "its struct is the console's (src/api/endpoints.ts AuditChainReport), not yet in contract/",
  'GET /event/manage/events/:id/explain': 'contract/decision.ts has its type, not a struct',
  'GET /event/manage/interfaces/discover': "its struct is the console's (src/api/endpoints.ts DiscoveredBoard), not yet in contract/",
  'GET /report/1.0/scheduled-jobs/delivery': 'no struct yet (server/reports/runs.ts reportJobDelivery)',
  'POST /event/manage/access-preview': "its struct is the console's (src/api/endpoints.ts AccessPreviewShape), not yet in contract/",
  'POST /event/manage/identity-batch-upload': "its struct is the console's (src/api/endpoints.ts BatchPreviewShape), not yet in contract/",
};

let s: TestServer;
let doc: {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components?: { securitySchemes?: Record<string, unknown>; schemas?: Record<string, unknown> };
};
beforeAll(async () => {
  s = await startTestServer();
  const r = await s.call('GET', OPENAPI_JSON); // no token: the description is open
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  doc = r.body;
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** A schema, response or parameter the document names once in components, as it is there. */
const resolve = (x: any): any =>
  x && typeof x.$ref === 'string'
    ? resolve(
        x.$ref
          .split('/')
          .slice(1)
          .reduce((o: any, k: string) => o?.[k], doc),
      )
    : x;
/** The JSON schema of a body or answer, with its shared parts and a page's items resolved (the description aside). */
const schemaOf = (x: any): any => {
  const s = resolve(x);
  if (!s || typeof s !== 'object') return s;
  const items = s.properties?.items?.items;
  return items?.$ref ? { ...s, properties: { ...s.properties, items: { ...s.properties.items, items: resolve(items) } } } : s;
};

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

  it('gives every route its answer, its refusals with violations, and who may call it', () => {
    const problems: string[] = [];
    for (const r of apiRoutes()) {
      const op = doc.paths[pathOf(r.url)]?.[r.method.toLowerCase()];
      const name = `${r.method} ${r.url}`;
      const success = Object.keys(op.responses ?? {}).filter((c) => /^2\d\d$/.test(c));
      if (success.length !== 1) problems.push(`${name}: success ${success}`);
      const bad = resolve(resolve(op.responses?.['400'])?.content?.['application/json']?.schema);
      if (!bad?.properties?.violations) problems.push(`${name}: no 400 with violations`);
      const open = Array.isArray(op.security) && op.security.length === 0;
      if (!open) {
        if (!op.responses?.['401'] || !op.responses?.['403']) problems.push(`${name}: no 401 or 403`);
        if (!(op.parameters ?? []).map(resolve).some((p: { in: string; name: string }) => p.in === 'header' && p.name === TENANT_HEADER))
          problems.push(`${name}: no ${TENANT_HEADER}`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.keys(doc.components?.securitySchemes ?? {}).sort()).toEqual(['apiKey', 'session']);
    // the catalogue's rows and inputs are named once and referred to (`Door`, `DoorInput`)
    expect(Object.keys(doc.components?.schemas ?? {})).toEqual(expect.arrayContaining(['Door', 'DoorInput', 'Identity', 'Refusal']));
    expect(resolve(doc.paths[pathOf(`${API.identities}/:id`)].get.responses['200'].content['application/json'].schema).properties.id).toBeTruthy();
    // a refusal as the contract says it (its sentence's key and values beside the English)
    const refusal = doc.components!.schemas!.Refusal as { properties: Record<string, { type?: string }>; required: string[] };
    const contract = toJsonSchema(Refusal) as { properties: Record<string, { type?: string }>; required: string[] };
    expect(Object.keys(refusal.properties)).toEqual(Object.keys(contract.properties));
    expect(refusal.required).toEqual(contract.required);
  });

  it('names the contract struct of the answer of every route but those listed, each with its reason', () => {
    const undeclared = apiRoutes()
      .filter((r) => routeDoc(r).response === undefined && routeDoc(r).status !== 204)
      .map((r) => `${r.method} ${r.url}`)
      .filter((k) => !(k in FREE_ANSWERS))
      .sort();
    expect(undeclared).toEqual([]);
  });

  it('names the body each route validates with: the struct its handler checks (learnt from a refused body) is the one in the document', async () => {
    // a server whose Fastify does not validate, so each handler's own check answers and names its struct
    const h = await startTestServer({ schemaValidation: false });
    try {
      await sameStructs(h);
    } finally {
      await h.close();
    }
  }, 180_000);

  async function sameStructs(s: TestServer) {
    routeBodySchemas.clear(); // learnt only from the handlers below
    const token = await s.loginTo('admin', 'HARBOUR');
    let learnt = 0;
    const problems: string[] = [];
    for (const r of apiRoutes()) {
      const op = doc.paths[pathOf(r.url)]?.[r.method.toLowerCase()];
      const documented = schemaOf(op?.requestBody?.content?.['application/json']?.schema);
      if (!documented) continue;
      const key = `${r.method} ${r.url}`;
      // an array is no route's body: refused before anything changes; path parameters name a row of the seed or none
      await s.call(r.method, r.url.replace(/:[A-Za-z0-9_]+/g, '1'), { token, raw: '[]' });
      const struct = routeBodySchemas.get(key);
      if (!struct) continue;
      learnt++;
      if (JSON.stringify(toJsonSchema(struct)) !== JSON.stringify(documented)) problems.push(key);
    }
    expect(problems).toEqual([]);
    expect(learnt).toBeGreaterThan(40);
  }

  it("answers what the document says: each list, each list's first row and each answer without parameters passes its struct", async () => {
    const token = await s.loginTo('admin', 'HARBOUR');
    const problems: string[] = [];
    let checked = 0;
    const check = async (url: string, struct: Struct<any, any>, name: string) => {
      const r = await s.call('GET', url, { token });
      if (r.status !== 200) return undefined;
      const v = validate(r.body, struct);
      checked++;
      if (!v.ok) problems.push(`${name}: ${JSON.stringify(v.violations.slice(0, 2))}`);
      return r.body;
    };
    for (const r of apiRoutes().filter((x) => x.method === 'GET' && !x.url.includes(':'))) {
      const { response } = routeDoc(r);
      if (!response || response === 'file') continue;
      const page = await check(r.url, response, r.url);
      const one = CATALOGUE.find((d) => apiPaths(d).list === r.url);
      const first = (page as { items?: Array<{ id?: number }> } | undefined)?.items?.[0]?.id;
      if (one && first !== undefined) {
        const route = { method: 'GET', url: apiPaths(one).one };
        const row = routeDoc(route).response;
        if (row && row !== 'file') await check(route.url.replace(':id', String(first)), row, route.url);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  }, 120_000);

  it("gives each catalogue route the body and query of the contract's structs it validates with", () => {
    let checked = 0;
    let lists = 0;
    for (const d of CATALOGUE) {
      const paths = apiPaths(d);
      const add = doc.paths[pathOf(paths.list)]?.post;
      // (a few resources add through a route of their own: server/resources, declared in ./declared.ts)
      if (add?.requestBody && !DECLARED[`POST ${paths.list}`]) {
        expect(schemaOf(add.requestBody.content['application/json'].schema), d.name).toEqual(toJsonSchema(inputSchema(d)));
        checked++;
      }
      const edit = doc.paths[pathOf(paths.one)]?.put;
      if (edit?.requestBody && !DECLARED[`PUT ${paths.one}`])
        expect(schemaOf(edit.requestBody.content['application/json'].schema), d.name).toEqual(toJsonSchema(inputSchema(d)));
      const bulk = doc.paths[pathOf(paths.bulkDelete)]?.post;
      if (bulk?.requestBody) expect(schemaOf(bulk.requestBody.content['application/json'].schema)).toEqual(toJsonSchema(BulkDeleteRequest));
      const list = doc.paths[pathOf(paths.list)]?.get;
      if (list?.parameters?.some((p: { in: string; name: string }) => p.in === 'query' && p.name === 'page')) lists++;
    }
    expect(checked).toBeGreaterThan(20);
    expect(lists).toBeGreaterThan(20);
    expect(Object.keys(toJsonSchema(ListQuery).properties as object)).toContain('size');
  });

  it('leaves a field with a default out of the bodies it requires, with its default, as the routes take it', async () => {
    let defaulted = 0;
    for (const d of CATALOGUE) {
      const add = doc.paths[pathOf(apiPaths(d).list)]?.post;
      if (!add?.requestBody || DECLARED[`POST ${apiPaths(d).list}`]) continue;
      const body = schemaOf(add.requestBody.content['application/json'].schema);
      for (const [k, f] of Object.entries(d.fields as Record<string, { default?: unknown; readOnly?: boolean; virtual?: boolean }>)) {
        if (f.default === undefined || f.readOnly || f.virtual) continue;
        expect(body.required ?? [], `${d.name}.${k}`).not.toContain(k);
        expect(body.properties[k].default, `${d.name}.${k}`).toEqual(f.default);
        defaulted++;
      }
    }
    expect(defaulted).toBeGreaterThan(10);
    // and the real route takes an output without its fail-safe and pulse time (the integrators' client demanded both)
    const token = await s.loginTo('admin', 'HARBOUR');
    const path = (name: string) => apiPaths(CATALOGUE.find((d) => d.name === name)!).list;
    const controllers = await s.call('GET', `${path('controllers')}?size=1`, { token });
    const controllerId = (controllers.body as { items: Array<{ id: number }> }).items[0].id;
    const made = await s.call('POST', path('outputs'), { token, body: { name: 'Defaulted strike', kind: 'strike', controllerId } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ failSafe: false, pulseSeconds: 5 });
  });

  it('is open to read, with a reference page; the API it describes is not', async () => {
    expect((await s.call('GET', `${OPENAPI_DOCS}/`)).status).toBe(200);
    expect((await s.call('GET', API.identities)).status).toBe(401);
  });

  it("validates in Fastify with the route's contract struct: after who may call it, before the handler", async () => {
    const token = await s.loginTo('admin', 'HARBOUR');
    // no door "x": the handler says "not found" before it reads the body; the body is refused before it runs
    const before = await s.call('POST', `${API.doors}/x/commands`, { token, body: { command: 'open-wide' } });
    expect(before.status).toBe(400);
    expect((before.body as { violations: Array<{ field: string }> }).violations.map((v) => v.field)).toEqual(['command']);
    const handler = await s.call('POST', `${API.doors}/x/commands`, { token, body: { command: 'lock' } });
    expect(handler.status).toBe(404);
    // without a session, or without the privilege, that is what the caller is told (nothing of the body's rules)
    expect((await s.call('POST', `${API.doors}/999999/commands`, { body: { command: 'open-wide' } })).status).toBe(401);
    const auditor = await s.login('auditor'); // reads the audit trail, controls no door
    expect((await s.call('POST', `${API.doors}/999999/commands`, { token: auditor, body: { command: 'open-wide' } })).status).toBe(403);
    // a query string's whole numbers are read as numbers, as the handlers read them
    expect((await s.call('GET', `${API.events}?size=5&page=0`, { token })).status).toBe(200);
  });

  it('refuses with the contract: a refused body answers 400 with violations naming the field, and keeps every field it answers', async () => {
    const token = await s.loginTo('admin', 'HARBOUR');
    const bad = await s.call('POST', API.identities, { token, body: { firstName: 42 } });
    expect(bad.status).toBe(400);
    expect((bad.body as { violations: Array<{ field: string }> }).violations.map((v) => v.field)).toContain('firstName');
    // a hand-written route with its body in the document: still the handler's answer
    const lockdown = await s.call('POST', `${API.doors}/lockdown`, { token, body: { on: 'yes' } });
    expect(lockdown.status).toBe(400);
    expect((lockdown.body as { violations: Array<{ field: string }> }).violations.map((v) => v.field)).toEqual(['on']);
    const query = await s.call('GET', `${API.events}?size=abc`, { token });
    expect(query.status).toBe(400);
    expect((query.body as { violations: Array<{ field: string }> }).violations.map((v) => v.field)).toEqual(['size']);
    const me = await s.call('GET', API.me, { token });
    expect(me.status).toBe(200);
    expect(Object.keys(me.body as object)).toEqual(expect.arrayContaining(['user', 'privileges']));
  });
});
