// Issue 48: a refusal carries its sentence's key and values beside the English (contract/messages.ts); the schema
// takes them, in the one key scheme, and takes a refusal without them (an integrator's plain sentence).
import { describe, expect, it } from 'vitest';
import { Refusal, SENTENCE_KEY, fill, fillTemplate, keyedAs, validate } from './index';
import { object, string } from './structs';

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

describe('keyedAs: a sentence flattened beside its English under one name', () => {
  it('flattens under the name, validates with its schema, and reads back the same sentence', () => {
    const k = keyedAs('reason');
    const said = fill('backup.noDir', 'No place for {what}', { what: 'backups' });
    const flat = k.said(said);
    expect(flat).toEqual({ reason: 'No place for backups', reasonCode: 'backup.noDir', reasonValues: { what: 'backups' } });
    const Shape = object({ reason: string(), ...k.schema });
    expect(validate(flat, Shape)).toMatchObject({ ok: true });
    expect(validate({ ...flat, reasonCode: 'Not a key' }, Shape).ok).toBe(false);
    expect(k.of(flat)).toEqual(said);
  });

  it('reads plain English (no key) as it is, and a key without values as a sentence without values', () => {
    const k = keyedAs('problem');
    expect(k.of({ problem: 'pg_restore: out of memory' })).toBe('pg_restore: out of memory');
    expect(k.of({ problem: null })).toBeNull();
    expect(k.of({ problem: 'Gone', problemCode: 'restore.gone' })).toEqual({ message: 'Gone', code: 'restore.gone', values: {} });
  });
});
