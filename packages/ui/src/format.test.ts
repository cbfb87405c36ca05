import { describe, expect, it } from 'vitest';
import { parseDecimal } from './format';

describe('parseDecimal', () => {
  it('turns a typed decimal into integer units through the string', () => {
    expect(parseDecimal('3.5', 2)).toBe(350);
    expect(parseDecimal('0.60', 2)).toBe(60);
    expect(parseDecimal(' 12 ', 2)).toBe(1200);
    expect(parseDecimal('0,07', 2)).toBe(7);
    // 0.1 + 0.2 style inputs stay exact.
    expect(parseDecimal('1234567.89', 2)).toBe(123456789);
  });

  it('refuses what is not a plain decimal of at most `places` decimals', () => {
    for (const bad of ['', '-1', '1.234', '1e3', 'abc', '1.2.3', '.5'])
      expect(parseDecimal(bad, 2)).toBeNull();
  });
});
