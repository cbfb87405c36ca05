import { describe, expect, it } from 'vitest';
import { buildClabe, clabeCheckDigit, validateClabe } from './clabe.js';
import { institutions } from './institutions.js';

// The valid examples of the note in shared/spec/data/spei-institutions.json.
const EXAMPLES = ['646180110400000007', '002010077777777771', '032180000118359719', '072691004495711499'];

// Deterministic PRNG (mulberry32) so a failure names a reproducible CLABE.
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const digitsFrom = (next: () => number, n: number) =>
  Array.from({ length: n }, () => Math.floor(next() * 10)).join('');

describe('clabeCheckDigit', () => {
  it('computes the last digit of each example', () => {
    for (const clabe of EXAMPLES) expect(clabeCheckDigit(clabe.slice(0, 17))).toBe(Number(clabe[17]));
  });

  it('refuses input that is not exactly 17 digits', () => {
    expect(() => clabeCheckDigit('1234567890123456')).toThrow(RangeError);
    expect(() => clabeCheckDigit('12345678901234567a'.slice(1))).toThrow(RangeError);
  });
});

describe('validateClabe', () => {
  it.each(EXAMPLES.filter((c) => !c.startsWith('032')))('accepts %s and names its bank', (clabe) => {
    const result = validateClabe(clabe);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.institution.clabe).toBe(clabe.slice(0, 3));
  });

  // 032 was IXE, merged into Banorte and gone from Banxico's participant list (and from the data file):
  // the example's check digit is right, but there is no bank to route it to.
  it('refuses the 032 example as unknown_bank, its check digit being right', () => {
    expect(validateClabe('032180000118359719')).toEqual({ ok: false, reason: 'unknown_bank' });
  });

  it('names STP for the 646 example', () => {
    expect(validateClabe('646180110400000007')).toMatchObject({
      ok: true,
      institution: { spei: '90646', name: 'STP' },
    });
  });

  it.each(EXAMPLES)('refuses every single-digit change of %s with check_digit', (clabe) => {
    for (let pos = 0; pos < 18; pos++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === clabe[pos]) continue;
        const mutated = `${clabe.slice(0, pos)}${d}${clabe.slice(pos + 1)}`;
        expect(validateClabe(mutated), mutated).toEqual({ ok: false, reason: 'check_digit' });
      }
    }
  });

  it('refuses a swap of two adjacent distinct digits', () => {
    expect(validateClabe('646180110400000070')).toEqual({ ok: false, reason: 'check_digit' });
  });

  it.each([
    ['17 digits', '64618011040000000', 'length'],
    ['19 digits', '6461801104000000070', 'length'],
    ['empty', '', 'length'],
    ['a letter', '64618011040000000A', 'digits'],
    ['a space', '646180110400000 07', 'digits'],
    ['full-width digits', '６４６１８０１１０４０００００００７', 'digits'],
  ])('refuses %s with %s', (_label, value, reason) => {
    expect(validateClabe(value)).toEqual({ ok: false, reason: reason as 'length' | 'digits' });
  });

  it('refuses a well-formed CLABE whose bank prefix is not a SPEI participant', () => {
    const prefix = ['999', '000', '555'].find((p) => !institutions.some((i) => i.clabe === p));
    expect(prefix).toBeDefined();
    expect(validateClabe(buildClabe(prefix!, '180', '00000000001'))).toEqual({
      ok: false,
      reason: 'unknown_bank',
    });
  });
});

describe('buildClabe', () => {
  it('rebuilds each example from its parts', () => {
    for (const clabe of EXAMPLES) {
      expect(buildClabe(clabe.slice(0, 3), clabe.slice(3, 6), clabe.slice(6, 17))).toBe(clabe);
    }
  });

  it('builds CLABEs that validate, for random accounts at every listed bank', () => {
    const next = random(20261121);
    for (const institution of institutions) {
      for (let n = 0; n < 20; n++) {
        const clabe = buildClabe(institution.clabe, digitsFrom(next, 3), digitsFrom(next, 11));
        expect(validateClabe(clabe), clabe).toEqual({ ok: true, institution });
      }
    }
  });

  it('throws on parts of the wrong length or with non-digits', () => {
    expect(() => buildClabe('12', '180', '00000000001')).toThrow(RangeError);
    expect(() => buildClabe('646', '1800', '0000000001')).toThrow(RangeError);
    expect(() => buildClabe('646', '180', '0000000001')).toThrow(RangeError);
    expect(() => buildClabe('646', '18a', '00000000001')).toThrow(RangeError);
  });
});
