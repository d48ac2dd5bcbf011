// The error chain of §8 as pure functions: what a failed call becomes, and whether and how it is shown.
import statuses from 'statuses';
import { JWT_INVALID, SESSION_EXPIRED_MESSAGE, TOAST_MS, isNoTokenPath, type Sentence, type Violation } from '../../contract';

export type Intent = 'danger' | 'warning' | 'success' | 'primary';
export interface Notice {
  intent: Intent;
  title: string;
  message: string;
  timeoutMs: number;
  /** issue 48: the message as the server said it, with its key and values (contract/messages.ts), for the toast to say
   *  in the operator's language by the key */
  sentence?: Sentence;
}

/** A failed call as the rest of the console sees it; a 400's violations travel to the form machine. */
export class ApiError extends Error {
  readonly status: number;
  readonly violations: Violation[];
  readonly cancelled: boolean;
  readonly path: string;
  readonly body: unknown;
  /** Upper-case HTTP method of the failed call ('' when unknown). */
  readonly method: string;
  /** issue 48: the message as a sentence with its key and values, when the server said it with them */
  readonly sentence?: Sentence;
  constructor(init: { status: number; message: string; violations?: Violation[]; cancelled?: boolean; path?: string; body?: unknown; method?: string }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.violations = init.violations ?? [];
    this.cancelled = init.cancelled ?? false;
    this.path = init.path ?? '';
    this.body = init.body;
    this.method = (init.method ?? '').toUpperCase();
    this.sentence = sentenceIn(init.body, init.message);
  }
}

/** The sentence of a refusal's body whose English is `message` (its own, or its first violation's), if it has a key. */
export function sentenceIn(body: unknown, message: string): Sentence | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as { violations?: unknown };
  const candidates = [body, ...(Array.isArray(b.violations) ? b.violations.slice(0, 1) : [])] as { message?: unknown; code?: unknown; values?: unknown }[];
  const s = candidates.find((x) => !!x && x.message === message && typeof x.code === 'string' && !!x.values && typeof x.values === 'object');
  return s ? { message, code: s.code as string, values: s.values as Sentence['values'] } : undefined;
}

/** A 404: the record asked for is not there (or belongs to another client). An answer, not a fault. */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError ? err.status === 404 : !!err && typeof err === 'object' && (err as { status?: unknown }).status === 404;
}

/** Violations that name a field: the form that sent them shows each on its field. */
export function fieldViolations(err: ApiError): Violation[] {
  return err.violations.filter((v) => v.field.trim() !== '');
}

export const DEFAULT_STATUS = 500;
export const DEFAULT_MESSAGE = 'Internal Server Error';
export const SUPPRESS_SAME_STATUS_MS = TOAST_MS;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

export function violationsIn(body: unknown): Violation[] {
  const v = body && typeof body === 'object' ? (body as { violations?: unknown }).violations : undefined;
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is Violation => !!x && typeof x.field === 'string' && typeof x.message === 'string');
}

/**
 * §8 message priority: first violation (prefixed with its field), system information error message, detail,
 * message, the status text, then 'Internal Server Error'.
 */
export function errorMessage(body: unknown, statusText?: string): string {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const first = violationsIn(body)[0];
  // a field in brackets ('(body)', '(query)') names no field a person filled in: its message alone
  if (first) return first.field && !first.field.startsWith('(') ? `${first.field}: ${first.message}` : first.message;
  const sys = b.systemInformation && typeof b.systemInformation === 'object' ? (b.systemInformation as Record<string, unknown>).errorMessage : undefined;
  return str(sys) ?? str(b.detail) ?? str(b.message) ?? str(statusText) ?? DEFAULT_MESSAGE;
}

/** What the REST client (./client.ts HttpFailure) rejects with, read loosely: anything else is a failure too. */
interface HttpLikeError {
  code?: string;
  name?: string;
  message?: string;
  __CANCEL__?: boolean;
  config?: { url?: string; method?: string };
  response?: { status?: number; statusText?: string; data?: unknown };
}

/** Normalise whatever the REST client rejected with (HTTP error, network error, cancellation) into an ApiError. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = (err ?? {}) as HttpLikeError;
  const path = e.config?.url ?? '';
  const method = e.config?.method ?? '';
  if (e.code === 'ERR_CANCELED' || e.name === 'CanceledError' || e.__CANCEL__) {
    return new ApiError({ status: 0, message: 'Request cancelled', cancelled: true, path, method });
  }
  const status = e.response?.status ?? DEFAULT_STATUS;
  const body = e.response?.data;
  const message = e.response ? errorMessage(body, e.response.statusText) : (str(e.message) ?? DEFAULT_MESSAGE);
  return new ApiError({ status, message, violations: violationsIn(body), path, body, method });
}

export function isJwtInvalid(err: ApiError): boolean {
  if (err.status !== 401) return false;
  const b = (err.body && typeof err.body === 'object' ? err.body : {}) as Record<string, unknown>;
  return b.message === JWT_INVALID || b.error === JWT_INVALID || err.message === JWT_INVALID;
}

export type ErrorDecision =
  | { kind: 'silent'; reason: 'cancelled' | 'noTokenPath' | 'unauthorised' | 'suppressed' | 'notFound' | 'onTheField' }
  | { kind: 'toast'; notice: Notice }
  | { kind: 'expired'; notice: Notice };

export interface ToastMemory {
  status: number;
  at: number;
}

/**
 * §8 titles a failed call's toast with its status code; a bare "409" says nothing to an operator, so its plain meaning
 * goes beside it: "409 · Conflict", "503 · Service unavailable" (the standard reason phrase, in sentence case; an
 * acronym such as HTTP stays as it is). A code without a standard phrase is the code alone.
 */
export function statusTitle(status: number): string {
  const phrase = statuses.message[status];
  if (!phrase) return String(status);
  const words = phrase.split(' ').map((w, i) => (i === 0 || /^[A-Z0-9-]{2,}$/.test(w) ? w : w.toLowerCase()));
  return `${status} · ${words.join(' ')}`;
}

/** §8: what a failed call shows. `last` is the previous toast, for the same-status suppression of 3 s. */
export function decideError(err: ApiError, now: number, last: ToastMemory | null): ErrorDecision {
  if (err.cancelled) return { kind: 'silent', reason: 'cancelled' };
  if (isNoTokenPath(err.path)) return { kind: 'silent', reason: 'noTokenPath' };
  if (err.status === 401 && !isJwtInvalid(err)) return { kind: 'silent', reason: 'unauthorised' };
  // Issue 10: a read of a record that is not there is answered by the screen's not-found state, not a toast
  if (err.status === 404 && err.method === 'GET') return { kind: 'silent', reason: 'notFound' };
  // Issue 10: a field the server refused is shown on that field by the form that sent it, not again as a toast
  if (err.status === 400 && fieldViolations(err).length > 0) return { kind: 'silent', reason: 'onTheField' };
  const suppressed = last !== null && last.status === err.status && now - last.at < SUPPRESS_SAME_STATUS_MS;
  if (isJwtInvalid(err)) {
    const notice: Notice = { intent: 'warning', title: statusTitle(err.status), message: SESSION_EXPIRED_MESSAGE, timeoutMs: TOAST_MS };
    return { kind: 'expired', notice };
  }
  if (suppressed) return { kind: 'silent', reason: 'suppressed' };
  const notice: Notice = { intent: 'danger', title: statusTitle(err.status), message: err.message, timeoutMs: TOAST_MS };
  return { kind: 'toast', notice: err.sentence ? { ...notice, sentence: err.sentence } : notice };
}

/**
 * The stateful part: remembers the last toast and performs the decision. `expire` is told the session ended
 * (the browser sends session.expired to the session actor); `notify` shows a toast.
 */
export function createErrorReporter(deps: {
  now: () => number;
  notify: (n: Notice) => void;
  expire: (path?: string) => void;
  currentPath?: () => string | undefined;
}) {
  let last: ToastMemory | null = null;
  return (err: ApiError): ErrorDecision => {
    const now = deps.now();
    const d = decideError(err, now, last);
    if (d.kind === 'toast' || d.kind === 'expired') {
      const showToast = !(last !== null && last.status === err.status && now - last.at < SUPPRESS_SAME_STATUS_MS);
      if (showToast) {
        deps.notify(d.notice);
        last = { status: err.status, at: now };
      }
      if (d.kind === 'expired') deps.expire(deps.currentPath?.());
    }
    return d;
  };
}
