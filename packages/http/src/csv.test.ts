import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.js';

describe('csv', () => {
  it('prefixes a cell a spreadsheet would read as a formula with an apostrophe', () => {
    for (const value of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(value).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it('quotes commas, quotes and line breaks, and leaves plain text alone', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12.5)).toBe('12.5');
  });

  it('writes numbers as they are, negative ones too, but text that looks negative gets its apostrophe', () => {
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(0)).toBe('0');
    expect(csvCell('-12.5')).toBe("'-12.5");
  });

  it('writes a row as CRLF-terminated cells', () => {
    expect(csvRow(['a', 1, undefined, '=x'])).toBe("a,1,,'=x\r\n");
  });
});
