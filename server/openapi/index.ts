// The API description for integrators (issue 48): an OpenAPI 3.1 document generated from the routes as they are
// registered (@fastify/swagger), served at /api/openapi.json, with a reference page at /api/docs
// (@fastify/swagger-ui). Both are open, like /api/health: they describe the API's shape and hold no data; every call
// they describe still needs a session token or a service account's API key.
//
// Every route gets a Fastify `schema` here, as it is registered (onRoute): its path parameters, its tag, who may call
// it (a session's bearer token or an API key; `x-tenant-id` picks the client in IAM mode), and the request body, query
// string and answer it declares: in its config (`config.body`, `config.query`, `config.response`: the contract's
// superstruct structs, the same the handler validates with), or, for routes outside server/http, in ./declared.ts; the
// catalogue's come from its declarations. They are converted to JSON Schema (./jsonSchema.ts) for the document, and
// Fastify validates each request's body and query string with the struct itself (contractValidator: one source, the
// contract's words in the `violations`), after authentication and before the handler. No response schema is given to
// Fastify (its serializer would drop fields it does not name): answers and refusals are described in the document only.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Struct } from 'superstruct';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_KEY_HEADER, APP_VERSION, Refusal, TENANT_HEADER, isNoTokenPath } from '../../contract';
import { jsonSchemaOf, toJsonSchema, type JsonSchema } from './jsonSchema';
import { validate } from '../../contract/schemas';
import { HttpError, INT_QUERY_FIELDS, query, routeBodySchemas, INVALID_REQUEST } from '../http/kit';
import { DECLARED, actionDoc, catalogueDocs, type RouteDoc } from './declared';
import { sharedSchemas } from './shared';

/** Where the document and its reference page are served. */
export const OPENAPI_JSON = '/api/openapi.json';
export const OPENAPI_DOCS = '/api/docs';

/** What a route may declare in its config for the document (and validates with itself). */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's struct of the JSON body the handler validates. */
    body?: Struct<any, any>;
    /** The contract's struct of the query string the handler validates. */
    query?: Struct<any, any>;
    /** The contract's struct of the answer (the one the console checks it with), or `file` for a download. */
    response?: Struct<any, any> | 'file';
    /** The status of a success when it is not 200. */
    status?: 201 | 202 | 204;
    /** One line of what the route does, for the document. */
    summary?: string;
  }
}

const SERVICE_PREFIX = /^\/(?:event\/manage|event|idp\/1\.0|central\/1\.0|visitor\/1\.0|report\/1\.0|api|batch|video|MyKad)\//;

/** The group a route is listed under: its first path segment after the service (`/event/manage/doors/:id` → doors). */
export function tagOf(url: string): string {
  const rest = url.replace(SERVICE_PREFIX, '');
  return rest.split('/')[0] || 'api';
}

/** Routes of the API (not the console's files, not the document's own page). */
export const isApiRoute = (url: string) => SERVICE_PREFIX.test(url) && !url.startsWith(`${OPENAPI_DOCS}`);

const routeKey = (route: Pick<RouteOptions, 'url' | 'method'>) => `${[route.method].flat()[0]} ${route.url}`;
let catalogue: Record<string, RouteDoc> | undefined;

/** What a route declares for the document: its own config first, then ./declared.ts, then the catalogue's declaration. */
export function routeDoc(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): RouteDoc {
  catalogue ??= catalogueDocs();
  const key = routeKey(route);
  const own = (route.config ?? {}) as RouteDoc;
  const merged = { ...actionDoc(String([route.method].flat()[0]), route.url, catalogue), ...catalogue[key], ...DECLARED[key] } as RouteDoc;
  for (const k of ['body', 'query', 'response', 'status', 'summary'] as const) if (own[k] !== undefined) (merged as Record<string, unknown>)[k] = own[k];
  return merged;
}

/** The schema a route is described with, made of what it declares. */
export function routeSchema(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): Record<string, unknown> {
  const doc = routeDoc(route);
  const open = !!(route.config as { open?: boolean } | undefined)?.open || isNoTokenPath(route.url);
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const schema: Record<string, unknown> = { tags: [tagOf(route.url)] };
  if (doc.summary) schema.summary = doc.summary;
  if (names.length) schema.params = { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])), required: names };
  // made once per struct and process (jsonSchemaOf), not per server build
  if (doc.body) schema.body = jsonSchemaOf(doc.body);
  if (doc.query) schema.querystring = queryString(jsonSchemaOf(doc.query));
  if (open) schema.security = [];
  else schema.headers = TENANT;
  return schema;
}

const TENANT = {
  type: 'object',
  properties: {
    [TENANT_HEADER]: {
      type: 'string',
      pattern: '^[0-9]+$',
      description:
        "IAM mode: the client (tenant) id the call works in, one the signed-in user holds grants in (else 403). Without it, the session's selected client.",
    },
  },
};

/** A query string's parameters are text: a number or a flag is written as one. */
function queryString(s: JsonSchema): JsonSchema {
  return s.type === 'object' ? s : { type: 'object' };
}

/**
 * Fastify's validation of a route's body and query string, with the contract's struct the route declares (the one the
 * JSON schema of the document is made of, and the one its handler checks with: one source). A refusal is the
 * contract's: 400 with violations naming the field, before the handler runs and before anything changes.
 * Authentication comes first (server/app.ts runs it before validation), so a caller without a session or the
 * privilege learns nothing of a body's rules. Path parameters and headers are the handler's and the authentication's
 * (an id that is not one is "not found"; a client header that is not the caller's is 403).
 */
export function contractValidator(structs: ReadonlyMap<string, { body?: Struct<any, any>; query?: Struct<any, any> }>) {
  return ({ method, url, httpPart }: { method: string; url: string; httpPart?: string }) => {
    const declared = structs.get(`${method} ${url}`);
    const struct = httpPart === 'body' ? declared?.body : httpPart === 'querystring' ? declared?.query : undefined;
    if (!struct) return () => true;
    if (httpPart === 'body') routeBodySchemas.set(`${method} ${url}`, struct); // the hostile-input walk's values
    const ints = httpPart === 'querystring' ? integerFields(struct) : [];
    if (httpPart === 'querystring')
      return (data: unknown) => {
        try {
          query(data, struct, ints); // as the handlers read a query string: its whole numbers as numbers
          return true;
        } catch (e) {
          return { error: e as Error };
        }
      };
    return (data: unknown) => {
      const r = validate(data ?? {}, struct);
      return r.ok ? true : { error: new HttpError(400, INVALID_REQUEST, r.violations) };
    };
  };
}

/** A query string's whole-number fields: those the handlers read as numbers everywhere, and those the struct says are. */
function integerFields(struct: Struct<any, any>): string[] {
  const props = (jsonSchemaOf(struct).properties ?? {}) as Record<string, JsonSchema>;
  const integer = (s: JsonSchema): boolean =>
    s.type === 'integer' || (Array.isArray(s.type) && s.type.includes('integer')) || ((s.anyOf ?? s.oneOf) as JsonSchema[] | undefined)?.some(integer) === true;
  return [...new Set([...INT_QUERY_FIELDS, ...Object.keys(props).filter((k) => integer(props[k]))])];
}

/** Registers the document and its page; every route registered after this gets its schema, and Fastify validates with it. */
export async function openApi(app: FastifyInstance, { validation = true }: { validation?: boolean } = {}): Promise<void> {
  const structs = new Map<string, { body?: Struct<any, any>; query?: Struct<any, any> }>();
  app.setValidatorCompiler(validation ? contractValidator(structs) : () => () => true);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(OPENAPI_DOCS)) route.config = { ...(route.config ?? {}), open: true } as typeof route.config;
    if (!isApiRoute(route.url)) {
      route.schema = { ...(route.schema ?? {}), hide: true } as typeof route.schema;
      return;
    }
    const { body, query } = routeDoc(route);
    for (const method of [route.method].flat()) structs.set(`${method} ${route.url}`, { body, query });
    route.schema = { ...routeSchema(route), ...(route.schema ?? {}) } as typeof route.schema;
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Gatehouse API',
        version: APP_VERSION,
        description:
          "The REST API of Gatehouse, generated from its routes and the contract they validate with. Sign in for a session token (POST /idp/1.0/login) or use a service account's API key. A refused request answers 4xx with `violations`: [{ field, message }].",
      },
      components: {
        securitySchemes: {
          session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER },
        },
      },
      security: [{ session: [] }, { apiKey: [] }],
    },
    transform: ({ schema, url, route }) => ({ schema: { ...(schema as object), response: responses(route) } as typeof schema, url }),
    transformObject: (o) => shared(('openapiObject' in o ? o.openapiObject : o.swaggerObject) as Record<string, any>),
  });
  await app.register(swaggerUi, { routePrefix: OPENAPI_DOCS });
  app.get(OPENAPI_JSON, { config: { open: true }, schema: { hide: true } }, async () => app.swagger());
}

/** The document with the schemas many operations repeat named once in components (a refusal, each catalogue row and input). */
function shared(document: Record<string, any>): Record<string, any> {
  return sharedSchemas(document, { Refusal: ERROR });
}

/** A refusal, as every route answers one (server/http/kit.ts errorBody). */
const ERROR = refusalSchema();
function refusalSchema(): JsonSchema {
  const s = toJsonSchema(Refusal) as { properties: Record<string, JsonSchema> } & JsonSchema;
  const describe: Record<string, string> = {
    message: 'What is wrong, in English.',
    code: "The sentence's key when the message is a sentence with values (the console says it in the reader's language).",
    values: 'The values the sentence was filled with.',
    violations: 'What is wrong with the request, one entry a field (`(body)` for the body as a whole).',
  };
  // a record's values are not read from its struct (./jsonSchema.ts): SentenceValues holds text and numbers
  const values = { type: 'object', additionalProperties: { type: ['string', 'number'] } };
  s.properties.values = values;
  (s.properties.violations as { items: { properties: Record<string, JsonSchema> } }).items.properties.values = values;
  for (const [k, d] of Object.entries(describe)) if (s.properties[k]) s.properties[k] = { description: d, ...s.properties[k] };
  return s;
}

/** The answer a route declares, as JSON Schema (a download is any file; an undeclared answer, any JSON value). */
export function answerSchema(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): Record<string, unknown> {
  const { response, status } = routeDoc(route);
  if (status === 204) return { description: 'Done; nothing to answer.', type: 'null' };
  if (response === 'file')
    return { description: 'The file (CSV, XLSX, an archive).', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
  return { description: 'Done: the resource, the page or the result the route names.', ...(response ? jsonSchemaOf(response) : {}) };
}

/** What a route may answer, for the document (Fastify is given no response schema). */
function responses(route: RouteOptions): Record<string, unknown> {
  const open = !!(route.config as { open?: boolean } | undefined)?.open || isNoTokenPath(route.url);
  return {
    [routeDoc(route).status ?? 200]: answerSchema(route),
    400: { description: 'Refused: the violations name each field and what is wrong.', ...ERROR },
    ...(open
      ? {}
      : {
          401: { description: 'No valid session token or API key.', ...ERROR },
          403: { description: 'The caller lacks the privilege for this action, or the client.', ...ERROR },
        }),
    404: { description: "Not found (another client's record is not found either).", ...ERROR },
    409: { description: 'In conflict with what is stored (a name taken, a record still in use).', ...ERROR },
  };
}
