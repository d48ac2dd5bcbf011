// The one REST client (same origin, §7). What it needs from the browser (storage, clock, the session actor,
// the toaster) is configured by src/system/browser.ts, so this file stays testable without a browser.
// Issue 48: the browser's fetch with the few conventions the console relied on from axios (18 KB of compressed script
// in the console's start): JSON bodies and answers, query parameters encoded the same way, a 2xx answer or an error
// carrying the request and the response, a blob or text answer when asked; the transport itself is `defaults.adapter`
// (tests give their own).
import { GRANTS_HEADER, LOGIN_MODE, TENANT_HEADER, isNoTokenPath, type LoginMode } from '../../contract';
import { ApiError, isJwtInvalid, toApiError } from './errors';

/** One request as the client sends it. */
export interface RequestConfig {
  url?: string;
  method?: string;
  /** Query parameters, in their order; undefined and null ones are left out. */
  params?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The body: a Blob, FormData, URLSearchParams, ArrayBuffer or string as it is, anything else as JSON. */
  data?: unknown;
  signal?: AbortSignal;
  /** How the answer's body is read: JSON (text where it is not JSON, '' when empty; the default), a Blob, or text. */
  responseType?: 'json' | 'blob' | 'text';
  /** The origin to send to ('' the console's own). */
  baseURL?: string;
}
/** An answer the server gave (any status). */
export interface HttpResponse<T = any> {
  data: T;
  status: number;
  statusText: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  config: RequestConfig;
}
/** What the transport rejects with: no answer (a network failure, `ERR_NETWORK`; an abort, `ERR_CANCELED`), or an
 *  answer outside 2xx (`response`). The shape toApiError (./errors.ts) reads. */
export interface HttpFailure extends Error {
  code: 'ERR_NETWORK' | 'ERR_CANCELED' | 'ERR_BAD_REQUEST' | 'ERR_BAD_RESPONSE';
  config: RequestConfig;
  response?: HttpResponse;
}
/** Sends one request and answers its response (2xx) or rejects with an HttpFailure. */
export type Adapter = (config: RequestConfig) => Promise<HttpResponse>;
type Options = Omit<RequestConfig, 'url' | 'method' | 'data'>;
export interface ApiClient {
  defaults: { baseURL: string; adapter: Adapter };
  request<T = any>(config: RequestConfig): Promise<HttpResponse<T>>;
  get<T = any>(url: string, options?: Options): Promise<HttpResponse<T>>;
  delete<T = any>(url: string, options?: Options): Promise<HttpResponse<T>>;
  post<T = any>(url: string, data?: unknown, options?: Options): Promise<HttpResponse<T>>;
  put<T = any>(url: string, data?: unknown, options?: Options): Promise<HttpResponse<T>>;
}

/**
 * A request's config as sent: the token the client put on it (not one the caller set), the client selected when
 * it left, and whether it is a retry.
 */
type SentConfig = RequestConfig & { ghToken?: string; ghClient?: string | null; ghRetried?: boolean };

export interface ApiDeps {
  getToken: () => string | null;
  getClientId: () => string | null;
  loginMode: () => LoginMode;
  /** Called with every failed call before the caller sees it (toasts, session expiry). */
  report: (err: ApiError) => void;
  /** Called with the grants tag of every answer that carries one (GRANTS_HEADER, issue 11). */
  grants?: (tag: string) => void;
  /**
   * Resolves once no change of token is under way (a client switch between its request and storing the new token).
   * A refusal of the old token can arrive inside that window, before the new one is stored: it is judged after.
   */
  settled?: () => Promise<void>;
}

const defaults: ApiDeps = { getToken: () => null, getClientId: () => null, loginMode: () => LOGIN_MODE, report: () => {} };

/** §7: bearer token on every call except the no-token paths; x-tenant-id from the stored client in IAM mode. */
export function requestHeaders(
  url: string,
  deps: Pick<ApiDeps, 'getToken' | 'getClientId' | 'loginMode'>,
  existing: Record<string, unknown> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isNoTokenPath(url) && !existing.Authorization && !existing.authorization) {
    const token = deps.getToken();
    if (token) out.Authorization = `Bearer ${token}`;
  }
  if (deps.loginMode() === 'IAM') {
    const clientId = deps.getClientId();
    if (clientId) out[TENANT_HEADER] = clientId;
  }
  return out;
}

/**
 * What becomes of a request the server refused for its token, the one rule of the REST client and the streamed reads
 * (src/api/stream.ts). Refused for a token that is no longer the console's (a client switch ends the session of the old
 * one while requests sent with it are still on their way), the server did nothing. Under the same client (a token
 * replaced by the sign-in of the same user, …) it is sent `again` with the current token, once. Under another client
 * it is never sent again (`cancel`): what it asked for (Northwind's floor plan 1, a record to save) is the old client's,
 * and sent under the new one it would read a stranger's id or write into the wrong client; the views of the old client
 * are gone with the switch, so it ends silently. A refusal that arrives while the switch is still storing its token
 * waits for it (settled) before judging. Anything else is a failure like any other (`fail`).
 */
export async function refusedToken(
  deps: Pick<ApiDeps, 'getToken' | 'getClientId' | 'settled'>,
  sent: { authorization?: string; client: string | null; retried: boolean },
  e: ApiError,
): Promise<'again' | 'cancel' | 'fail'> {
  if (!sent.authorization || sent.retried || !isJwtInvalid(e)) return 'fail';
  await deps.settled?.();
  const current = deps.getToken();
  if (!current || sent.authorization === `Bearer ${current}`) return 'fail';
  return deps.getClientId() === sent.client ? 'again' : 'cancel';
}

let sessionReads = new AbortController();

/**
 * The signal a read (a GET, of the REST client or src/api/stream.ts) carries besides its own (`own`): aborted when the
 * session it was sent in ends (endSessionReads).
 */
export function withSessionReads(own?: AbortSignal): AbortSignal {
  return own ? eitherSignal(own, sessionReads.signal) : sessionReads.signal;
}

/**
 * A signal aborted when either is. `AbortSignal.any` where the browser has it (Chrome 116, Firefox 124, Safari 17.4);
 * the build also targets older ones (Vite's default: Chrome 87, Safari 14), where a controller listens to both.
 */
export function eitherSignal(a: AbortSignal, b: AbortSignal, any: typeof AbortSignal.any | undefined = AbortSignal.any): AbortSignal {
  if (typeof any === 'function') return any.call(AbortSignal, [a, b]);
  const both = new AbortController();
  if (a.aborted || b.aborted) {
    both.abort();
    return both.signal;
  }
  const abort = () => {
    a.removeEventListener('abort', abort);
    b.removeEventListener('abort', abort);
    both.abort();
  };
  a.addEventListener('abort', abort);
  b.addEventListener('abort', abort);
  return both.signal;
}

/**
 * Sign-out: the reads still on their way are dropped before the token is ended on the server. The views that asked for
 * them are gone with the session, and a read the browser had not sent yet (six connections to a server, the dashboard
 * asks for more at once) would otherwise reach the server after the token was ended and be refused (a 401 in the
 * browser's console, and in any tool watching it). Writes are left to finish (the journal's last entries go before
 * the sign-out, src/system/browser.ts). A later session's reads carry a new signal.
 */
export function endSessionReads(): void {
  sessionReads.abort();
  sessionReads = new AbortController();
}

/**
 * The rule of every read the console sends with the session's token (the REST client, src/api/stream.ts): asked for
 * while the token is being replaced (a client switch, between its request and storing the new token), it waits for
 * the new one instead of leaving with the old, which the server has ended (refused, a 401 in the browser's console,
 * and dropped). False when the client changed meanwhile: what it asked for was the old client's (the rule of
 * refusedToken), and it is not sent at all.
 */
export async function readMayLeave(deps: Pick<ApiDeps, 'getClientId' | 'settled'>, url: string): Promise<boolean> {
  if (isNoTokenPath(url) || !deps.settled) return true;
  const client = deps.getClientId();
  await deps.settled();
  return deps.getClientId() === client;
}

/** A query value as axios encoded it (the server and the end-to-end tests read the same URLs): `,` `:` `$` `[` `]` kept,
 *  a space as `+`. */
function encodeParam(v: string): string {
  return encodeURIComponent(v)
    .replace(/%3A/gi, ':')
    .replace(/%24/g, '$')
    .replace(/%2C/gi, ',')
    .replace(/%20/g, '+')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');
}

/** The URL of a request: its path, then its parameters in their order (a Date as ISO text, an object as JSON). */
export function requestUrl(config: RequestConfig): string {
  const url = `${config.baseURL ?? ''}${config.url ?? ''}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(config.params ?? {})) {
    if (v === undefined || v === null) continue;
    for (const one of Array.isArray(v) ? v : [v]) {
      const text = one instanceof Date ? one.toISOString() : typeof one === 'object' ? JSON.stringify(one) : String(one);
      parts.push(`${encodeParam(Array.isArray(v) ? `${k}[]` : k)}=${encodeParam(text)}`);
    }
  }
  if (!parts.length) return url;
  const hash = url.indexOf('#');
  const bare = hash === -1 ? url : url.slice(0, hash);
  return `${bare}${bare.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

const sentAsIs = (d: unknown) =>
  typeof d === 'string' ||
  (typeof Blob !== 'undefined' && d instanceof Blob) ||
  (typeof FormData !== 'undefined' && d instanceof FormData) ||
  (typeof URLSearchParams !== 'undefined' && d instanceof URLSearchParams) ||
  d instanceof ArrayBuffer ||
  ArrayBuffer.isView(d);

function failure(message: string, code: HttpFailure['code'], config: RequestConfig, response?: HttpResponse): HttpFailure {
  const e = new Error(message) as HttpFailure;
  e.name = code === 'ERR_CANCELED' ? 'CanceledError' : 'HttpFailure';
  e.code = code;
  e.config = config;
  if (response) e.response = response;
  return e;
}

/** JSON where the text is JSON, the text itself where it is not, '' when empty. */
function jsonOrText(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The browser's fetch as the client's transport. */
export const fetchAdapter: Adapter = async (config) => {
  const headers: Record<string, string> = { Accept: 'application/json, text/plain, */*', ...config.headers };
  let body: BodyInit | undefined;
  if (config.data !== undefined && config.data !== null) {
    if (sentAsIs(config.data)) body = config.data as BodyInit;
    else {
      body = JSON.stringify(config.data);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
  }
  let res: Response;
  try {
    res = await fetch(requestUrl(config), { method: (config.method ?? 'get').toUpperCase(), headers, body, signal: config.signal, credentials: 'same-origin' });
  } catch (e) {
    if (config.signal?.aborted || (e as { name?: string })?.name === 'AbortError') throw failure('canceled', 'ERR_CANCELED', config);
    throw failure('Network Error', 'ERR_NETWORK', config);
  }
  const ok = res.status >= 200 && res.status < 300;
  let data: unknown;
  try {
    // an error's body is read for what it says (its violations, its message), whatever the caller asked for
    data = ok && config.responseType === 'blob' ? await res.blob() : ok && config.responseType === 'text' ? await res.text() : jsonOrText(await res.text());
  } catch (e) {
    if (config.signal?.aborted || (e as { name?: string })?.name === 'AbortError') throw failure('canceled', 'ERR_CANCELED', config);
    throw failure('Network Error', 'ERR_NETWORK', config);
  }
  const answer: HttpResponse = { data, status: res.status, statusText: res.statusText, headers: {}, config };
  res.headers.forEach((v, k) => (answer.headers[k.toLowerCase()] = v));
  if (!ok) throw failure(`Request failed with status code ${res.status}`, res.status < 500 ? 'ERR_BAD_REQUEST' : 'ERR_BAD_RESPONSE', config, answer);
  return answer;
};

const hasHeader = (headers: Record<string, string> | undefined, name: string) => Object.keys(headers ?? {}).some((h) => h.toLowerCase() === name.toLowerCase());

export function createApiClient(getDeps: () => ApiDeps): ApiClient {
  const defaults = { baseURL: '', adapter: fetchAdapter };
  /** The token and tenant put on, a read waiting out a client switch and dropped with its session. */
  const decorate = async (config: SentConfig): Promise<SentConfig> => {
    const read = (config.method ?? 'get').toLowerCase() === 'get';
    const headers = { ...config.headers };
    // a read with a token of its own (the session's own checks, which run inside a change of token) does not wait
    if (read && !hasHeader(headers, 'Authorization') && !(await readMayLeave(getDeps(), config.url ?? '')))
      throw failure('The client changed while the read waited', 'ERR_CANCELED', config);
    const added = requestHeaders(config.url ?? '', getDeps(), headers);
    return {
      ...config,
      baseURL: config.baseURL ?? defaults.baseURL,
      ...(read ? { signal: withSessionReads(config.signal) } : {}),
      headers: { ...headers, ...added },
      ghToken: added.Authorization,
      ghClient: getDeps().getClientId(),
    };
  };
  const request = async <T = any>(config: SentConfig): Promise<HttpResponse<T>> => {
    let sent: SentConfig = config;
    try {
      sent = await decorate(config);
      const r = await defaults.adapter(sent);
      const tag = r.headers?.[GRANTS_HEADER];
      if (typeof tag === 'string') getDeps().grants?.(tag);
      return r as HttpResponse<T>;
    } catch (err: unknown) {
      const e = toApiError(err);
      const verdict = await refusedToken(getDeps(), { authorization: sent.ghToken, client: sent.ghClient ?? null, retried: !!config.ghRetried }, e);
      if (verdict === 'cancel') {
        throw new ApiError({ status: 0, message: 'Request cancelled', cancelled: true, path: e.path, method: e.method });
      }
      // sent again with the current token (the caller's own headers, the token put on afresh)
      if (verdict === 'again') return request<T>({ ...config, ghRetried: true });
      getDeps().report(e);
      throw e;
    }
  };
  return {
    defaults,
    request,
    get: (url, o) => request({ ...o, url, method: 'get' }),
    delete: (url, o) => request({ ...o, url, method: 'delete' }),
    post: (url, data, o) => request({ ...o, url, method: 'post', data }),
    put: (url, data, o) => request({ ...o, url, method: 'put', data }),
  };
}

let deps: ApiDeps = defaults;
export function configureApi(next: Partial<ApiDeps>): void {
  deps = { ...deps, ...next };
}
export const api = createApiClient(() => deps);
/** The configured dependencies, for the calls that do not go through the client (src/api/stream.ts). */
export const apiDeps = (): ApiDeps => deps;
