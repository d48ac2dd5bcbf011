// The API description for integrators (issue 48): an OpenAPI 3.1 document generated from the routes as they are
// registered (@fastify/swagger), served at /api/openapi.json, with a reference page at /api/docs
// (@fastify/swagger-ui). Both are open, like /api/health: they describe the API's shape and hold no data; every call
// they describe still needs a session token or a service account's API key.
//
// Every route gets a Fastify `schema` here, as it is registered (onRoute): its path parameters, its tag, who may call
// it, and the request body and query string the route declares in its config (`config.body`, `config.query`: the
// contract's superstruct structs, the same the handler validates with), converted to JSON Schema (./jsonSchema.ts).
// Fastify does not validate with them a second time: the handler's check with the contract's struct answers 400 with
// `violations` naming the field, as every route always has; and no response schema is given to Fastify (its serializer
// would drop fields it does not name): responses are described in the document only.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Struct } from 'superstruct';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_KEY_HEADER, APP_VERSION, isNoTokenPath } from '../../contract';
import { toJsonSchema, type JsonSchema } from './jsonSchema';

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

/** The schema a route is described with, made of what it declares. */
export function routeSchema(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): Record<string, unknown> {
  const config = (route.config ?? {}) as { body?: Struct<any, any>; query?: Struct<any, any>; summary?: string; open?: boolean };
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const schema: Record<string, unknown> = { tags: [tagOf(route.url)] };
  if (config.summary) schema.summary = config.summary;
  if (names.length) schema.params = { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])), required: names };
  if (config.body) schema.body = toJsonSchema(config.body);
  if (config.query) schema.querystring = queryString(toJsonSchema(config.query));
  if (config.open || isNoTokenPath(route.url)) schema.security = [];
  return schema;
}

/** A query string's parameters are text: a number or a flag is written as one. */
function queryString(s: JsonSchema): JsonSchema {
  return s.type === 'object' ? s : { type: 'object' };
}

/** Registers the document and its page; every route registered after this gets its schema. */
export async function openApi(app: FastifyInstance): Promise<void> {
  // the handlers validate with the contract's structs (violations naming the field); the JSON schemas describe
  app.setValidatorCompiler(() => () => true);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(OPENAPI_DOCS)) route.config = { ...(route.config ?? {}), open: true } as typeof route.config;
    if (!isApiRoute(route.url)) {
      route.schema = { ...(route.schema ?? {}), hide: true } as typeof route.schema;
      return;
    }
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
    transform: ({ schema, url }) => ({ schema: { ...(schema as object), response: responses() } as typeof schema, url }),
  });
  await app.register(swaggerUi, { routePrefix: OPENAPI_DOCS });
  app.get(OPENAPI_JSON, { config: { open: true }, schema: { hide: true } }, async () => app.swagger());
}

const ERROR = {
  type: 'object',
  properties: {
    status: { type: 'integer' },
    message: { type: 'string' },
    violations: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['field', 'message'] },
    },
  },
};

/** What every route may answer, for the document (Fastify is given no response schema). */
function responses(): Record<string, unknown> {
  return {
    200: { description: 'Done: the resource, the page or the result the route names.', type: 'object', additionalProperties: true },
    400: { description: 'Refused: the violations name each field and what is wrong.', ...ERROR },
    401: { description: 'No valid session token or API key.', ...ERROR },
    403: { description: 'The caller lacks the privilege for this action.', ...ERROR },
    404: { description: "Not found (another client's record is not found either).", ...ERROR },
  };
}
