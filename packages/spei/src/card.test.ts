import { describe, expect, it } from 'vitest';
import { luhnValid, validateDebitCard } from './card.js';

describe('luhnValid', () => {
  it.each([
    '4111111111111111',
    '5555555555554444',
    '4012888888881881',
    '378282246310005',
    '6011111111111117',
    '79927398713',
  ])('accepts the known valid number %s', (n) => expect(luhnValid(n)).toBe(true));

  it.each(['4111111111111112', '5555555555554445', '79927398710', '1234567812345678'])(
    'refuses the known invalid number %s',
    (n) => expect(luhnValid(n)).toBe(false),
  );

  it('refuses empty strings and non-digits', () => {
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('4111 1111 1111 1111')).toBe(false);
    expect(luhnValid('411111111111111a')).toBe(false);
  });

  it('accepts exactly one of the ten possible check digits for random 15-digit prefixes', () => {
    let seed = 42;
    const nextDigit = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * 10);
    };
    for (let n = 0; n < 500; n++) {
      const prefix = Array.from({ length: 15 }, nextDigit).join('');
      const passing = Array.from({ length: 10 }, (_, d) => `${prefix}${d}`).filter(luhnValid);
      expect(passing, prefix).toHaveLength(1);
      expect(validateDebitCard(passing[0]!)).toEqual({ ok: true });
    }
  });
});

describe('validateDebitCard', () => {
  it('accepts a 16-digit number passing Luhn', () => {
    expect(validateDebitCard('4111111111111111')).toEqual({ ok: true });
  });

  it('refuses a number failing Luhn', () => {
    expect(validateDebitCard('4111111111111112')).toEqual({ ok: false, reason: 'luhn' });
  });

  it('refuses a Luhn-valid number that is not 16 digits (15-digit Amex, 18-digit CLABE)', () => {
    expect(validateDebitCard('378282246310005')).toEqual({ ok: false, reason: 'length' });
    expect(validateDebitCard('646180110400000007')).toEqual({ ok: false, reason: 'length' });
  });

  it('refuses 16 characters that are not all digits', () => {
    expect(validateDebitCard('4111-1111-111111')).toEqual({ ok: false, reason: 'digits' });
  });
});
