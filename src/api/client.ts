// The one axios instance (same origin, §7). What it needs from the browser (storage, clock, the session actor,
// the toaster) is configured by src/system/browser.ts, so this file stays testable without a browser.
import axios, { AxiosHeaders, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { GRANTS_HEADER, LOGIN_MODE, TENANT_HEADER, isNoTokenPath, type LoginMode } from '../../contract';
import { ApiError, isJwtInvalid, toApiError } from './errors';
import { takeEarly } from './early';

/**
 * A request's config as sent: the token the interceptor put on it (not one the caller set), the client selected when
 * it left, and whether it is a retry.
 */
type SentConfig = InternalAxiosRequestConfig & { ghToken?: string; ghClient?: string | null; ghRetried?: boolean };

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

/** What the next early-answer task delivers; one task for every answer settled before it runs. */
let earlyTask: (() => void)[] | null = null;
function inEarlyTask<T>(value: T): Promise<T> {
  return new Promise((resolve) => {
    if (!earlyTask) {
      const batch: (() => void)[] = (earlyTask = []);
      setTimeout(() => {
        earlyTask = null;
        for (const deliver of batch) deliver();
      }, 0);
    }
    earlyTask.push(() => resolve(value));
  });
}

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
 * What becomes of a request the server refused for its token, the one rule of the axios client and the streamed reads
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
 * The signal a read (a GET, of the axios client or src/api/stream.ts) carries besides its own (`own`): aborted when the
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
 * The rule of every read the console sends with the session's token (the axios client, src/api/stream.ts): asked for
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

export function createApiClient(getDeps: () => ApiDeps): AxiosInstance {
  const instance = axios.create({ baseURL: '' });
  // issue 48: a GET the entry asked early with the same token (./early.ts) is answered by that answer, once, as if it
  // had come now: axios transforms it, and the interceptors below see it, as they would its own
  const usual = axios.getAdapter(axios.defaults.adapter);
  instance.defaults.adapter = (config) => {
    const headers = AxiosHeaders.from(config.headers);
    const early =
      (config.method ?? 'get').toLowerCase() === 'get' && !headers.has(TENANT_HEADER)
        ? takeEarly(instance.getUri(config), headers.get('Authorization')?.toString())
        : null;
    if (!early) return usual(config);
    // in a task of its own, as an answer off the network comes: what it sets off (a session restored, a screen drawn)
    // is not run inside the task that asked (the system's start: one task of ~90 ms instead of ~58 with no client);
    // the early answers already in when their reads are asked share that task, so the screen draws them in one render
    return early
      .then((a) => inEarlyTask(a))
      .then((a) => {
        if (!a) return usual(config);
        if (config.signal?.aborted) throw new axios.CanceledError('The read was cancelled', undefined, config);
        return { data: a.body, status: a.status, statusText: a.statusText, headers: AxiosHeaders.from(a.headers), config, request: null };
      });
  };
  instance.interceptors.request.use(async (config: SentConfig) => {
    const read = (config.method ?? 'get').toLowerCase() === 'get';
    const headers = AxiosHeaders.from(config.headers);
    // a read with a token of its own (the session's own checks, which run inside a change of token) does not wait
    if (read && !headers.has('Authorization') && !(await readMayLeave(getDeps(), config.url ?? '')))
      throw new axios.CanceledError('The client changed while the read waited');
    if (read) config.signal = withSessionReads(config.signal as AbortSignal | undefined);
    const added = requestHeaders(config.url ?? '', getDeps(), headers.toJSON());
    for (const [k, v] of Object.entries(added)) headers.set(k, v);
    config.headers = headers;
    config.ghToken = added.Authorization;
    config.ghClient = getDeps().getClientId();
    return config;
  });
  instance.interceptors.response.use(
    (r) => {
      const tag = r.headers?.[GRANTS_HEADER];
      if (typeof tag === 'string') getDeps().grants?.(tag);
      return r;
    },
    async (err: unknown) => {
      const e = toApiError(err);
      const config = (err as { config?: SentConfig }).config;
      const verdict = await refusedToken(getDeps(), { authorization: config?.ghToken, client: config?.ghClient ?? null, retried: !!config?.ghRetried }, e);
      if (verdict === 'cancel') {
        return Promise.reject(new ApiError({ status: 0, message: 'Request cancelled', cancelled: true, path: e.path, method: e.method }));
      }
      if (verdict === 'again') {
        const headers = AxiosHeaders.from(config!.headers);
        headers.delete('Authorization');
        return instance.request({ ...config, headers, ghRetried: true } as SentConfig);
      }
      getDeps().report(e);
      return Promise.reject(e);
    },
  );
  return instance;
}

let deps: ApiDeps = defaults;
export function configureApi(next: Partial<ApiDeps>): void {
  deps = { ...deps, ...next };
}
export const api = createApiClient(() => deps);
/** The configured dependencies, for the calls that do not go through axios (src/api/stream.ts). */
export const apiDeps = (): ApiDeps => deps;
