import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('CSV export', () => {
  it('starts with a byte-order mark and quotes cells with commas, quotes and line breaks', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['1', 'two\nlines'],
        ],
      ),
    ).toBe('\uFEFFa,b\r\n"x,y","say ""hi"""\r\n1,"two\nlines"\r\n');
  });
  it('neutralises spreadsheet formulas', () => {
    expect(toCsv(['a'], [['=1+1']])).toBe("\uFEFFa\r\n'=1+1\r\n");
  });
  it('names repeated headers apart and keeps "Zoë 🙂" as written', () => {
    expect(toCsv(['Division', 'Division'], [['Zoë 🙂', '1']])).toBe('\uFEFFDivision,Division (2)\r\nZoë 🙂,1\r\n');
  });
});
