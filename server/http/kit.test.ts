// Issue 28: the http kit (server/http/kit.ts) is the one small room every route imports, so it imports nothing of the
// server's own rooms: contract/ and libraries only. A kit that reached the database or another room would make every
// route depend on it, and the rooms could no longer be understood, moved or tested apart.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ListQuery, PAGE_SIZE, RedeliverRequest } from '../../contract';
import fc from 'fast-check';
import { HttpError, body, errorBody, fill, idParam, jsonDepthProblem, listParams, parseJsonBody, query } from './kit';

const KIT = fileURLToPath(new URL('./kit.ts', import.meta.url));
const importsOf = (text: string) => [...text.matchAll(/^\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);

describe('the http kit', () => {
  it('imports nothing under server/: contract/ and libraries only', () => {
    const imports = importsOf(readFileSync(KIT, 'utf8'));
    expect(imports.length).toBeGreaterThan(0); // the file was read and its imports found
    const ours = imports.filter((p) => p.startsWith('.') && !/^\.\.\/\.\.\/contract(\/|$)/.test(p));
    expect(ours).toEqual([]);
  });

  it('turns bad input into a 400 with violations naming the field, and good input into its value', () => {
    const bad = (() => {
      try {
        body({ deliveryId: 'x' }, RedeliverRequest);
      } catch (e) {
        return e;
      }
    })() as HttpError;
    expect(bad).toBeInstanceOf(HttpError);
    expect(bad.status).toBe(400);
    expect(bad.violations?.map((v) => v.field)).toContain('deliveryId');
    expect(body({ deliveryId: 7 }, RedeliverRequest)).toEqual({ deliveryId: 7 });
    expect(errorBody(400, 'Validation failed', bad.violations)).toMatchObject({ status: 400, error: 'Bad Request', violations: bad.violations });
  });

  it('reads list queries: whole numbers from text, sorts over the allow-list only', () => {
    expect(query({ page: '2', size: '10' }, ListQuery)).toMatchObject({ page: 2, size: 10 });
    expect(listParams({ sort: 'name,desc' }, { id: 't.id', name: 't.name' }, 't.id')).toEqual({
      page: 0,
      size: PAGE_SIZE,
      orderBy: 't.name desc, t.id asc',
      q: null,
    });
    let refused: HttpError | undefined;
    try {
      listParams({ sort: 'password,asc' }, { id: 't.id', name: 't.name' }, 't.id');
    } catch (e) {
      refused = e as HttpError;
    }
    expect(refused?.status).toBe(400);
    expect(refused?.violations?.[0].field).toBe('sort');
  });

  it('refuses a body nested too deep or naming __proto__, and a route id that is not a whole number', () => {
    expect(() => parseJsonBody('['.repeat(100) + ']'.repeat(100))).toThrow(HttpError);
    expect(() => parseJsonBody('{"__proto__": {"x": 1}}')).toThrow(/__proto__/);
    expect(() => idParam({ params: { id: '12abc' } } as never, 'Door')).toThrow(fill('record.notFound', '{what} not found', { what: 'Door' }).message);
    expect(idParam({ params: { id: '12' } } as never, 'Door')).toBe(12);
  });
});

/** The depth rule walked a character at a time (the scanner before it skipped strings by search): the oracle. */
function depthByWalk(text: string, maxDepth: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return `is nested more than ${maxDepth} levels deep`;
    } else if (c === 93 || c === 125) depth--;
  }
  return undefined;
}

describe('the JSON depth check', () => {
  it('counts brackets outside strings as a walk of every character does: escapes, runs of backslashes, unterminated strings', () => {
    const text = fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ':', ',', ' '), maxLength: 60 });
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 4 }), (t, max) => {
        expect(jsonDepthProblem(t, max)).toBe(depthByWalk(t, max));
      }),
      { numRuns: 5000 },
    );
    expect(jsonDepthProblem('{"a":"[[[[\\"]]]"}', 1)).toBeUndefined();
    expect(jsonDepthProblem('[[["\\\\"[', 3)).toBe('is nested more than 3 levels deep');
  });
});
