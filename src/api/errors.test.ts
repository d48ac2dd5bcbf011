import { describe, expect, it, vi } from 'vitest';
import { SESSION_EXPIRED_MESSAGE, TOAST_MS } from '../../contract';
import { ApiError, createErrorReporter, decideError, errorMessage, statusTitle, toApiError } from './errors';
import { loadLocale, saySentence } from '../i18n';

const httpError = (status: number, data: unknown, url = '/event/manage/identities', statusText = '') => ({
  config: { url },
  response: { status, data, statusText },
});

describe('errorMessage', () => {
  it('follows the §8 priority: violation, system information, detail, message, statusText, default', () => {
    const full = { violations: [{ field: 'email', message: 'has the wrong format' }], systemInformation: { errorMessage: 'sys' }, detail: 'd', message: 'm' };
    expect(errorMessage(full, 'Bad Request')).toBe('email: has the wrong format');
    expect(errorMessage({ ...full, violations: [] }, 'x')).toBe('sys');
    expect(errorMessage({ detail: 'd', message: 'm' }, 'x')).toBe('d');
    expect(errorMessage({ message: 'm' }, 'x')).toBe('m');
    expect(errorMessage({}, 'Bad Gateway')).toBe('Bad Gateway');
    // a violation of no field a person filled in (the body as a whole) is said without its bracketed name
    expect(errorMessage({ violations: [{ field: '(body)', message: 'is not valid JSON' }] }, 'x')).toBe('is not valid JSON');
    expect(errorMessage(undefined, '')).toBe('Internal Server Error');
    expect(errorMessage('<html>', undefined)).toBe('Internal Server Error');
  });
});

describe('toApiError', () => {
  it('keeps a 400 body’s violations for the form', () => {
    const e = toApiError(
      httpError(400, { status: 400, error: 'Bad Request', message: 'invalid', violations: [{ field: 'firstName', message: 'is required' }] }),
    );
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
  it('toasts with the status as title, its plain meaning beside it, for 3 s', () => {
    const d = decideError(toApiError(httpError(404, { message: 'No such door' }, '/event/manage/doors/1/commands')), 0, null);
    expect(d).toEqual({ kind: 'toast', notice: { intent: 'danger', title: '404 · Not found', message: 'No such door', timeoutMs: TOAST_MS } });
    const refused = decideError(toApiError(httpError(409, { message: 'This door is held locked by threat level NC1 Red: lower it first' })), 0, null);
    expect(refused).toEqual({
      kind: 'toast',
      notice: { intent: 'danger', title: '409 · Conflict', message: 'This door is held locked by threat level NC1 Red: lower it first', timeoutMs: TOAST_MS },
    });
  });
  it('carries the sentence the server said, key and values, for the toast to say in the operator’s language (issue 48)', async () => {
    const message = 'This door is held locked by threat level NC1 Red: lower it first';
    const said = { message, code: 'door.heldByThreatLevel', values: { level: 'NC1 Red' } };
    const d = decideError(toApiError(httpError(409, { status: 409, error: 'Conflict', ...said })), 0, null);
    expect(d).toEqual({ kind: 'toast', notice: { intent: 'danger', title: '409 · Conflict', message, timeoutMs: TOAST_MS, sentence: said } });
    await loadLocale('zh-CN');
    expect(d.kind === 'toast' && d.notice.sentence && saySentence(d.notice.sentence, 'zh-CN')).toBe('此门因威胁等级“NC1 Red”保持锁定：请先降低威胁等级');
    // a violation shown alone (a field in brackets) is its sentence; one shown after its field name is not the sentence
    const alone = { field: '(body)', message: 'Bus address 3 is R1’s on this controller', code: 'osdp.addressTaken', values: { address: 3, name: 'R1' } };
    expect(toApiError(httpError(409, { message: 'Validation failed', violations: [alone] })).sentence).toEqual({
      message: alone.message,
      code: alone.code,
      values: alone.values,
    });
    expect(toApiError(httpError(409, { message: 'Validation failed', violations: [{ ...alone, field: 'address' }] })).sentence).toBeUndefined();
    expect(toApiError(httpError(409, { message })).sentence).toBeUndefined();
  });
  it('titles each status with its code first and the meaning in plain words (issue 29)', () => {
    expect([400, 403, 404, 409, 413, 429, 500, 503, 505].map(statusTitle)).toEqual([
      '400 · Bad request',
      '403 · Forbidden',
      '404 · Not found',
      '409 · Conflict',
      '413 · Payload too large',
      '429 · Too many requests',
      '500 · Internal server error',
      '503 · Service unavailable',
      '505 · HTTP version not supported',
    ]);
    // a code with no standard meaning keeps the code alone, as §8 asks
    expect([599, 0].map(statusTitle)).toEqual(['599', '0']);
    // a 400 whose violation names no field is toasted, titled the same way
    const bare = decideError(toApiError(httpError(400, { message: 'Validation failed', violations: [{ field: '', message: 'nothing to do' }] })), 0, null);
    expect(bare.kind === 'toast' && bare.notice.title).toBe('400 · Bad request');
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

describe('decideError on expected answers (issue 10)', () => {
  it('leaves a read that found nothing to the screen’s not-found state', () => {
    const e = toApiError({ config: { url: '/visitor/1.0/visitors/1', method: 'get' }, response: { status: 404, data: { message: 'Visitor not found' } } });
    expect(decideError(e, 0, null)).toEqual({ kind: 'silent', reason: 'notFound' });
  });
  it('still toasts a 404 of a command (a door that vanished under a click)', () => {
    const e = toApiError({ config: { url: '/event/manage/doors/9/lock', method: 'post' }, response: { status: 404, data: { message: 'Door not found' } } });
    expect(decideError(e, 0, null).kind).toBe('toast');
  });
  it('leaves a refused field to the form that shows it on the field', () => {
    const e = toApiError({
      config: { url: '/event/manage/identities', method: 'post' },
      response: { status: 400, data: { violations: [{ field: 'credentials.0.number', message: 'is already in use' }] } },
    });
    expect(decideError(e, 0, null)).toEqual({ kind: 'silent', reason: 'onTheField' });
  });
  it('toasts a refusal that names no field in words, without a field prefix', () => {
    const e = toApiError({
      config: { url: '/event/manage/identities', method: 'post' },
      response: { status: 400, data: { violations: [{ field: '', message: 'An identity needs a division you may manage' }] } },
    });
    const d = decideError(e, 0, null);
    expect(d.kind === 'toast' && d.notice.message).toBe('An identity needs a division you may manage');
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
    expect(notify).toHaveBeenLastCalledWith(expect.objectContaining({ title: '401 · Unauthorized', message: SESSION_EXPIRED_MESSAGE }));
    expect(expire).toHaveBeenCalledWith('/manage/clients');
  });
});
