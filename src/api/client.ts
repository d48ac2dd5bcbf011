// The one axios instance (same origin, §7). What it needs from the browser (storage, clock, the session actor,
// the toaster) is configured by src/system/browser.ts, so this file stays testable without a browser.
import axios, { AxiosHeaders, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { GRANTS_HEADER, LOGIN_MODE, TENANT_HEADER, isNoTokenPath, type LoginMode } from '../../contract';
import { toApiError, type ApiError } from './errors';

export interface ApiDeps {
  getToken: () => string | null;
  getClientId: () => string | null;
  loginMode: () => LoginMode;
  /** Called with every failed call before the caller sees it (toasts, session expiry). */
  report: (err: ApiError) => void;
  /** Called with the grants tag of every answer that carries one (GRANTS_HEADER, issue 11). */
  grants?: (tag: string) => void;
}

const defaults: ApiDeps = { getToken: () => null, getClientId: () => null, loginMode: () => LOGIN_MODE, report: () => {} };

/** §7: bearer token on every call except the no-token paths; x-tenant-id from the stored client in IAM mode. */
export function requestHeaders(url: string, deps: Pick<ApiDeps, 'getToken' | 'getClientId' | 'loginMode'>, existing: Record<string, unknown> = {}): Record<string, string> {
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

export function createApiClient(getDeps: () => ApiDeps): AxiosInstance {
  const instance = axios.create({ baseURL: '' });
  instance.interceptors.request.use((config: InternalAxiosRequestConfig) => {
    const headers = AxiosHeaders.from(config.headers);
    for (const [k, v] of Object.entries(requestHeaders(config.url ?? '', getDeps(), headers.toJSON()))) headers.set(k, v);
    config.headers = headers;
    return config;
  });
  instance.interceptors.response.use(
    (r) => {
      const tag = r.headers?.[GRANTS_HEADER];
      if (typeof tag === 'string') getDeps().grants?.(tag);
      return r;
    },
    (err: unknown) => {
      const e = toApiError(err);
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
