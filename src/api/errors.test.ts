import { describe, expect, it, vi } from 'vitest';
import { SESSION_EXPIRED_MESSAGE, TOAST_MS } from '../../contract';
import { ApiError, createErrorReporter, decideError, errorMessage, toApiError } from './errors';

const httpError = (status: number, data: unknown, url = '/event/manage/identities', statusText = '') =>
  ({ config: { url }, response: { status, data, statusText } });

describe('errorMessage', () => {
  it('follows the §8 priority: violation, system information, detail, message, statusText, default', () => {
    const full = { violations: [{ field: 'email', message: 'has the wrong format' }], systemInformation: { errorMessage: 'sys' }, detail: 'd', message: 'm' };
    expect(errorMessage(full, 'Bad Request')).toBe('email: has the wrong format');
    expect(errorMessage({ ...full, violations: [] }, 'x')).toBe('sys');
    expect(errorMessage({ detail: 'd', message: 'm' }, 'x')).toBe('d');
    expect(errorMessage({ message: 'm' }, 'x')).toBe('m');
    expect(errorMessage({}, 'Bad Gateway')).toBe('Bad Gateway');
    expect(errorMessage(undefined, '')).toBe('Internal Server Error');
    expect(errorMessage('<html>', undefined)).toBe('Internal Server Error');
  });
});

describe('toApiError', () => {
  it('keeps a 400 body’s violations for the form', () => {
    const e = toApiError(httpError(400, { status: 400, error: 'Bad Request', message: 'invalid', violations: [{ field: 'firstName', message: 'is required' }] }));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.status).toBe(400);
    expect(e.violations).toEqual([{ field: 'firstName', message: 'is required' }]);
  });
  it('defaults to 500 without a response and marks cancellations', () => {
    expect(toApiError({ message: 'Network Error', config: { url: '/x' } }).status).toBe(500);
    expect(toApiError({ code: 'ERR_CANCELED', config: { url: '/x' } }).cancelled).toBe(true);
  });
});

describe('decideError', () => {
  it('toasts with the status as title for 3 s', () => {
    const d = decideError(toApiError(httpError(404, { message: 'No such door' })), 0, null);
    expect(d).toEqual({ kind: 'toast', notice: { intent: 'danger', title: '404', message: 'No such door', timeoutMs: TOAST_MS } });
  });
  it('is silent for cancelled requests, no-token paths and 401s other than JWT-Invalid', () => {
    expect(decideError(toApiError({ code: 'ERR_CANCELED' }), 0, null).kind).toBe('silent');
    expect(decideError(toApiError(httpError(500, {}, '/idp/1.0/login')), 0, null).kind).toBe('silent');
    expect(decideError(toApiError(httpError(401, { message: 'Bad credentials' })), 0, null).kind).toBe('silent');
  });
  it('turns 401 JWT-Invalid into the session-expired notice', () => {
    const d = decideError(toApiError(httpError(401, { status: 401, error: 'Unauthorized', message: 'JWT-Invalid' })), 0, null);
    expect(d.kind).toBe('expired');
    expect(d.kind === 'expired' && d.notice.message).toBe(SESSION_EXPIRED_MESSAGE);
  });
  it('suppresses the same status for 3 s but not another status', () => {
    const e = toApiError(httpError(500, {}));
    expect(decideError(e, 2999, { status: 500, at: 0 }).kind).toBe('silent');
    expect(decideError(e, 3000, { status: 500, at: 0 }).kind).toBe('toast');
    expect(decideError(e, 1, { status: 404, at: 0 }).kind).toBe('toast');
  });
});

describe('createErrorReporter', () => {
  it('shows one toast per status per 3 s on the injected clock and expires the session on JWT-Invalid', () => {
    let now = 1000;
    const notify = vi.fn();
    const expire = vi.fn();
    const report = createErrorReporter({ now: () => now, notify, expire, currentPath: () => '/manage/clients' });
    report(toApiError(httpError(500, {})));
    report(toApiError(httpError(500, {})));
    expect(notify).toHaveBeenCalledTimes(1);
    now += 3000;
    report(toApiError(httpError(500, {})));
    expect(notify).toHaveBeenCalledTimes(2);
    report(toApiError(httpError(401, { message: 'JWT-Invalid' })));
    expect(notify).toHaveBeenLastCalledWith(expect.objectContaining({ title: '401', message: SESSION_EXPIRED_MESSAGE }));
    expect(expire).toHaveBeenCalledWith('/manage/clients');
  });
});
