// The JSON body parser of every route (server/http/kit.ts parseJsonBody): a key that could reach a prototype is
// refused by name however it is written, and any other body parses as JSON.parse would.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseJsonBody } from './kit';

const refusal = (text: string) => {
  try {
    parseJsonBody(text);
    return null;
  } catch (e) {
    return (e as { violations?: unknown }).violations;
  }
};

describe('parseJsonBody', () => {
  it('refuses __proto__ and constructor.prototype keys, written plainly or in \\u escapes, at any depth', () => {
    for (const text of [
      '{"__proto__":{"admin":true}}',
      '{"a":[{"__proto__":1}]}',
      '{"\\u005f_proto__":{"admin":true}}',
      '{"__pro\\u0074o__":1}',
      '{"constructor":{"prototype":{"x":1}}}',
      '{"a":{"constructo\\u0072":{"prototype":1}}}',
    ])
      expect(refusal(text), text).toEqual([
        {
          field: '(body)',
          message: expect.stringMatching(/must not contain a key named "(__proto__|constructor)"/),
          code: expect.stringMatching(/^json\.has(ForbiddenKey|ConstructorKey)$/),
          values: expect.any(Object),
        },
      ]);
  });

  it('parses anything else exactly as JSON.parse does (with or without the guarded path)', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'small' }), (text) => {
        fc.pre(!/"(__proto__|constructor)":/.test(JSON.stringify(JSON.parse(text)))); // those are the refused ones
        expect(parseJsonBody(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
    expect(parseJsonBody('{"constructor":"a name","note":"\\u00e9"}')).toEqual({ constructor: 'a name', note: 'é' });
    expect(parseJsonBody('  ')).toBeUndefined();
  });
});
