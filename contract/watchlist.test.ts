import { describe, expect, it } from 'vitest';
import { editDistance, normaliseDocument, normaliseName, watchlistMatch } from './watchlist';

describe('the visitor watchlist match', () => {
  it('sets case, accents and spacing aside in names', () => {
    expect(normaliseName('  Zoë   MÜLLER-Straße ')).toBe('zoe muller strasse');
    expect(normaliseName('José Álvarez')).toBe('jose alvarez');
    expect(normaliseDocument(' ab-12 34 ')).toBe('AB1234');
  });
  it('counts edits, and stops once past the bound', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('mueller', 'muller')).toBe(1);
    expect(editDistance('abcdefgh', 'zzzzzzzz', 2)).toBe(3);
  });
  it('finds the same name in either order, whatever the case and accents', () => {
    expect(watchlistMatch({ firstName: 'jose', lastName: 'ALVAREZ' }, { fullName: 'José Álvarez' })).toBe('name');
    expect(watchlistMatch({ firstName: 'Álvarez', lastName: 'José' }, { fullName: 'Jose Alvarez' })).toBe('name');
  });
  it('finds a similar name within a small edit distance, and not a different one', () => {
    expect(watchlistMatch({ firstName: 'Jon', lastName: 'Smyth' }, { fullName: 'John Smith' })).toBe('similar-name');
    expect(watchlistMatch({ firstName: 'Jane', lastName: 'Smith' }, { fullName: 'John Smith' })).toBeNull();
    expect(watchlistMatch({ firstName: 'Al', lastName: 'Li' }, { fullName: 'Al Lu' })).toBeNull();
  });
  it('finds the same document number, spaces, dashes and case aside, before the name', () => {
    expect(watchlistMatch({ firstName: 'Any', lastName: 'Body', documentNumber: 'x12-345 6' }, { fullName: 'Someone Else', documentNumber: 'X123456' })).toBe(
      'document',
    );
    expect(
      watchlistMatch({ firstName: 'Any', lastName: 'Body', documentNumber: 'X123457' }, { fullName: 'Someone Else', documentNumber: 'X123456' }),
    ).toBeNull();
  });
});
