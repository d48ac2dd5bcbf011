// The http kit: what every route shares and nothing of the server's own rooms: the request's principal, errors in the
// shape the console's toast chain reads (HttpError, errorBody), the JSON body parser, validation with the contract
// schemas into violations (body, query), list paging and sorting (listParams), route parameters and reply helpers.
// It imports contract/ and libraries only (server/http/kit.test.ts): the audit trail of a request is
// server/audit/trail.ts, the list window's SQL server/db/queries/list.ts.
import type { FastifyRequest } from 'fastify';
import { ListQuery, PAGE_SIZE, fill, parseSort, validate, type PrivilegeEntry, type Sentence, type Violation } from '../../contract';
import type { Struct } from 'superstruct';

export interface Principal {
  userId: number;
  username: string;
  clientId: number | null;
  jti: string;
  entries: PrivilegeEntry[];
  held: Set<string>;
  /** A client's division ids, from the request cache. */
  divisionIds(clientId: number): Promise<number[]>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
  interface FastifyContextConfig {
    privileges?: string[];
    mode?: 'ONLY_ONE' | 'ALL';
    open?: boolean;
    needsClient?: boolean;
  }
}

/** A sentence with values (contract/messages.ts fill): the English with its key and values beside it. */
export { fill };
/** What a refusal says: plain English, or a sentence with values (fill). */
export type Said = string | Sentence;
/** The refusal of a request whose fields are wrong (its `violations` say which and why), with its key (issue 48). */
export const INVALID_REQUEST = fill('request.invalid', 'Validation failed', {});
const englishOf = (said: Said) => (typeof said === 'string' ? said : said.message);
/** What an error says: its sentence when it carries a key (HttpError of fill, ManagementError…), else its English. */
export const saidOf = (e: { message: string; code?: unknown; values?: Sentence['values'] }): Said =>
  typeof e.code === 'string' && e.values ? { message: e.message, code: e.code, values: e.values } : e.message;

export class HttpError extends Error {
  /** the sentence's key and values, when the message is a sentence with values */
  readonly code?: string;
  readonly values?: Sentence['values'];
  constructor(
    public status: number,
    said: Said,
    public violations?: Violation[],
  ) {
    super(englishOf(said));
    if (typeof said !== 'string') {
      this.code = said.code;
      this.values = said.values;
    }
  }
}
const NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};
/** A refusal's body (contract/messages.ts Refusal): `code` and `values` beside the English when it is a sentence with values. */
export const errorBody = (status: number, said: Said, violations?: Violation[]) => ({
  status,
  error: NAMES[status] ?? 'Error',
  message: englishOf(said),
  ...(typeof said === 'string' ? {} : { code: said.code, values: said.values }),
  ...(violations ? { violations } : {}),
});

/** How deep a JSON body may nest; deeper bodies are refused before parsing (issue 13: 10,000-level arrays). */
export const JSON_MAX_DEPTH = 64;

/** Why `text` is not an acceptable JSON body, or undefined: nesting deeper than JSON_MAX_DEPTH, counted outside strings. */
export function jsonDepthProblem(text: string, maxDepth = JSON_MAX_DEPTH): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // a string, skipped to its closing quote (one after an even run of backslashes) by indexOf: most of a body's
      // characters are in strings, and the search is native (issue 30: the character walk cost more than the parse)
      let end = i;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return undefined; // unterminated: the parser says so
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 92) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = end;
    } else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return `is nested more than ${maxDepth} levels deep`;
    } else if (c === 93 || c === 125) depth--;
  }
  return undefined;
}

/**
 * The JSON body parser of every route: bounded depth, keys that could reach an object's prototype refused by
 * name, and a message that says what is wrong. An empty body is no body.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  // issue 48: said with their keys like every refusal, the English beside them for an integrator's log
  if (jsonDepthProblem(text))
    throw new HttpError(400, fill('json.tooDeep', 'The JSON body is nested more than {max} levels deep', { max: JSON_MAX_DEPTH }), [
      { field: '(body)', ...fill('json.isTooDeep', 'is nested more than {max} levels deep', { max: JSON_MAX_DEPTH }) },
    ]);
  let forbidden: string | null = null;
  let value: unknown;
  // a key can only be named __proto__ or constructor if the text says so, or hides it in a \u escape: without
  // either, the plain (several times faster) parse is the same answer — device batches are thousands a second
  const suspect = text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
  try {
    value = !suspect
      ? JSON.parse(text)
      : JSON.parse(text, (key, v) => {
          if (key === '__proto__' || (key === 'constructor' && v !== null && typeof v === 'object' && 'prototype' in v)) forbidden ??= key;
          return v;
        });
  } catch (e) {
    const why = (e as Error).message.replace(/^JSON\.parse: /, '');
    // the parser's own words (the runtime's English) are a value
    throw new HttpError(400, fill('json.invalid', 'The body is not valid JSON: {why}', { why }), [
      { field: '(body)', ...fill('json.isInvalid', 'is not valid JSON ({why})', { why }) },
    ]);
  }
  if (forbidden === 'constructor')
    throw new HttpError(400, fill('json.constructorKey', 'The JSON body must not contain a key named "constructor" holding "prototype"', {}), [
      { field: '(body)', ...fill('json.hasConstructorKey', 'must not contain a key named "constructor" holding "prototype"', {}) },
    ]);
  if (forbidden)
    throw new HttpError(400, fill('json.forbiddenKey', 'The JSON body must not contain a key named "{key}"', { key: forbidden }), [
      { field: '(body)', ...fill('json.hasForbiddenKey', 'must not contain a key named "{key}"', { key: forbidden }) },
    ]);
  return value;
}

// Which contract schema each route validates its JSON body with, learnt as requests arrive: the hostile-input
// property test derives its values from them, so a new route is covered without a list to keep.
const bodyRoutes = new WeakMap<object, string>();
export const routeBodySchemas = new Map<string, Struct<any, any>>();
/** Called by the JSON parser: this parsed body belongs to `route` ('POST /path/:id'). */
export function noteBodyRoute(value: unknown, route: string): void {
  if (value !== null && typeof value === 'object') bodyRoutes.set(value, route);
}

/** Routes whose body is lines of JSON (NDJSON) rather than one value: the schema of the first line and of every other. */
export const routeLineSchemas = new Map<string, { first: Struct<any, any>; rest: Struct<any, any> }>();
/** Called by such a route as it is registered: it validates its lines with these contract schemas. */
export function noteLineSchemas(route: string, first: Struct<any, any>, rest: Struct<any, any>): void {
  routeLineSchemas.set(route, { first, rest });
}

export function body<T>(value: unknown, struct: Struct<T, any>): T {
  if (value !== null && typeof value === 'object') {
    const route = bodyRoutes.get(value);
    if (route) routeBodySchemas.set(route, struct);
  }
  const r = validate(value ?? {}, struct);
  if (!r.ok) throw new HttpError(400, INVALID_REQUEST, r.violations);
  return r.value;
}

export function principal(req: FastifyRequest): Principal {
  if (!req.principal) throw new HttpError(401, 'JWT-Invalid');
  return req.principal;
}
/** The selected client of the request; a route that works inside a client needs one. */
export function clientOf(req: FastifyRequest): number {
  const p = principal(req);
  if (p.clientId === null) throw new HttpError(403, fill('client.selectFirst', 'Select a client first', {}));
  return p.clientId;
}
/** Division ids the user's entries matching `codes` cover (§6). */
export function divisionsFor(p: Pick<Principal, 'entries'>, codes: string[]): number[] {
  const s = new Set<number>();
  for (const e of p.entries) if (e.privilegeIds.some((c) => codes.includes(c))) e.divisionIds.forEach((d) => s.add(d));
  return [...s];
}

/** A list's window as a route parsed it: page (0-based), size, an ORDER BY from allow-listed columns, a filter (server/db/queries/list.ts's ListWindow). */
export interface ListParams {
  page: number;
  size: number;
  orderBy: string;
  q: string | null;
}

/**
 * Query strings arrive as text: whole numbers become numbers so the contract's int32() rules apply (a 20-digit
 * number becomes one too big, and is refused as such).
 */
function coerceQuery(query: unknown, intFields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...((query ?? {}) as Record<string, unknown>) };
  for (const k of intFields) if (typeof out[k] === 'string' && /^-?\d{1,400}$/.test(out[k] as string)) out[k] = Number(out[k]);
  return out;
}

/** Validates a query string with a contract schema (ListQuery or one built on it); 400 with violations otherwise. */
/** Query parameters that hold whole numbers wherever they appear. */
export const INT_QUERY_FIELDS = ['page', 'size', 'divisionId', 'afterId', 'beforeId', 'eventPointId', 'eventCode', 'clientId', 'userId'] as const;

export function query<T>(value: unknown, struct: Struct<T, any>, intFields: readonly string[] = INT_QUERY_FIELDS): T {
  const r = validate(coerceQuery(value, intFields), struct);
  if (!r.ok) throw new HttpError(400, INVALID_REQUEST, r.violations);
  return r.value;
}

/** page (0-based), size (default PAGE_SIZE), sort=field,asc|desc pairs over an allow-list, q. */
export function listParams(raw: unknown, sortable: Record<string, string>, defaultOrder: string, struct: Struct<any, any> = ListQuery): ListParams {
  const q = query(raw, struct) as ListQuery;
  let orderBy = defaultOrder;
  try {
    const sorts = parseSort(q.sort, Object.keys(sortable));
    if (sorts.length) orderBy = sorts.map((s) => `${sortable[s.field]} ${s.dir}`).join(', ') + `, ${sortable.id ?? 'id'} asc`;
  } catch (e) {
    throw new HttpError(400, INVALID_REQUEST, [{ field: 'sort', message: (e as Error).message }]);
  }
  return { page: q.page ?? 0, size: q.size ?? PAGE_SIZE, orderBy, q: q.q?.trim() ? q.q.trim() : null };
}

/** A route parameter that must be a positive whole number that fits an integer column; anything else is "not found". */
export function idParam(req: FastifyRequest, what: string, name = 'id'): number {
  const raw = (req.params as Record<string, string | undefined>)[name] ?? '';
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw new HttpError(404, fill('record.notFound', '{what} not found', { what }));
  return id;
}
