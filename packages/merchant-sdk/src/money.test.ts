import { describe, expect, it } from 'vitest';
import { amountToCentavos, centavosToAmount, parsePayBody } from './money.js';
import { formatApiTime } from './time.js';

describe('money helpers', () => {
  it('converts amounts with up to two decimals to centavos and back', () => {
    expect(amountToCentavos(100.5)).toBe(10050);
    expect(amountToCentavos(0.01)).toBe(1);
    expect(amountToCentavos(99_999_999.99)).toBe(9_999_999_999);
    expect(centavosToAmount(10050)).toBe(100.5);
    expect(centavosToAmount(1n)).toBe(0.01);
  });

  it('refuses a third decimal, a float artefact and a negative amount', () => {
    expect(() => amountToCentavos(1.005)).toThrow(RangeError);
    expect(() => amountToCentavos(0.1 + 0.2)).toThrow(RangeError);
    expect(() => amountToCentavos(-1)).toThrow(RangeError);
    expect(() => centavosToAmount(1.5)).toThrow(RangeError);
  });

  it('parses a payBody and refuses one without a clabe', () => {
    expect(parsePayBody('{"clabe":"646180157000000004","amount":100.5}')).toMatchObject({ amount: 100.5 });
    expect(() => parsePayBody('{"amount":1}')).toThrow(TypeError);
  });

  it('parses the cashierUrl of a payBody and refuses one that is not http(s)', () => {
    const url = 'http://127.0.0.1:8080/cashier/P20261123000000000001?t=abc';
    const body = (cashierUrl: unknown) =>
      JSON.stringify({ clabe: '646180157000000004', amount: 1, cashierUrl });
    expect(parsePayBody(body(url)).cashierUrl).toBe(url);
    expect(() => parsePayBody(body('javascript:alert(1)'))).toThrow(TypeError);
    expect(() => parsePayBody(body(42))).toThrow(TypeError);
  });
});

describe('formatApiTime', () => {
  it('renders the wall clock of the given zone', () => {
    const instant = new Date('2026-11-21T16:15:00Z');
    expect(formatApiTime(instant, 'America/Mexico_City')).toBe('2026-11-21 10:15:00');
    expect(formatApiTime(instant, 'UTC')).toBe('2026-11-21 16:15:00');
    expect(formatApiTime(new Date('2026-07-01T04:00:00Z'), 'America/New_York')).toBe('2026-07-01 00:00:00');
  });
});
