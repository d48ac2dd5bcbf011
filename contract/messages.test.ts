// Issue 48: a refusal carries its sentence's key and values beside the English (contract/messages.ts); the schema
// takes them, in the one key scheme, and takes a refusal without them (an integrator's plain sentence).
import { describe, expect, it } from 'vitest';
import { Refusal, SENTENCE_KEY, fillTemplate, validate } from './index';

describe('a refusal', () => {
  it('validates with its key and values beside the English, and in each violation', () => {
    const body = {
      status: 409,
      error: 'Conflict',
      message: fillTemplate('That person is not inside {zone}', { zone: 'Vault' }),
      code: 'access.notInside',
      values: { zone: 'Vault' },
      violations: [{ field: 'address', message: 'Bus address 3 is R1’s on this controller', code: 'osdp.addressTaken', values: { address: 3, name: 'R1' } }],
    };
    expect(body.message).toBe('That person is not inside Vault');
    expect(validate(body, Refusal)).toMatchObject({ ok: true });
    expect(validate({ status: 404, error: 'Not Found', message: 'Door not found' }, Refusal)).toMatchObject({ ok: true });
  });

  it('refuses a key outside the scheme and values that are not text or numbers', () => {
    const base = { status: 409, error: 'Conflict', message: 'x' };
    for (const code of ['Access.notInside', 'notInside', 'access.', 'access.not inside', 'access..notInside'])
      expect([code, SENTENCE_KEY.test(code), validate({ ...base, code, values: {} }, Refusal).ok]).toEqual([code, false, false]);
    expect(validate({ ...base, code: 'access.notInside', values: { zone: { nested: 1 } } }, Refusal).ok).toBe(false);
    expect(validate({ ...base, violations: [{ field: 'f', message: 'm', code: 'Bad key' }] }, Refusal).ok).toBe(false);
  });
});

describe('fillTemplate', () => {
  it('fills each placeholder, keeps one without a value as written, and never reads a value as a template', () => {
    expect(fillTemplate('{a} and {b}, {a} again', { a: 1, b: 'x' })).toBe('1 and x, 1 again');
    expect(fillTemplate('{door} needs {what}', { door: 'Lab' })).toBe('Lab needs {what}');
    expect(fillTemplate('no placeholder', { a: 1 })).toBe('no placeholder');
    expect(fillTemplate('{a}{b}', { a: '{b}', b: '' })).toBe('{b}');
    expect(fillTemplate('', {})).toBe('');
    // the same template again (split once and kept) fills the same way
    expect(fillTemplate('{a} and {b}, {a} again', { a: 'p', b: 'q' })).toBe('p and q, p again');
  });
});
