import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('CSV export', () => {
  it('quotes cells with commas, quotes and line breaks', () => {
    expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], ['1', 'two\nlines']])).toBe('a,b\r\n"x,y","say ""hi"""\r\n1,"two\nlines"\r\n');
  });
  it('neutralises spreadsheet formulas', () => {
    expect(toCsv(['a'], [['=1+1']])).toBe("a\r\n'=1+1\r\n");
  });
});
