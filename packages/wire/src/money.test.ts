import { describe, expect, it } from 'vitest';
import { centavosToAmount, feeFor, MAX_AMOUNT_CENTAVOS, parseAmount } from './money.js';

describe('parseAmount', () => {
  it.each([
    [100.5, 10050],
    [19.99, 1999],
    [4.35, 435],
    [1.15, 115],
    [0.01, 1],
    [0.1, 10],
    [1, 100],
    [99_999_999.99, MAX_AMOUNT_CENTAVOS],
  ])('reads %d as %d centavos exactly', (value, centavos) => {
    expect(parseAmount(value)).toEqual({ ok: true, centavos });
  });

  it.each([
    ['0.1 + 0.2', 0.1 + 0.2, 'must have at most 2 decimal places'],
    ['three decimals', 1.005, 'must have at most 2 decimal places'],
    ['1e-7', 1e-7, 'must be at least 0.01'],
    ['0.001', 0.001, 'must be at least 0.01'],
    ['zero', 0, 'must be at least 0.01'],
    ['minus zero', -0, 'must be at least 0.01'],
    ['negative', -1, 'must be at least 0.01'],
    ['above the maximum', 100_000_000, 'must be at most 99999999.99'],
    ['just above the maximum', 99_999_999.991, 'must be at most 99999999.99'],
    ['1e21', 1e21, 'must be at most 99999999.99'],
    ['NaN', Number.NaN, 'must be a number'],
    ['Infinity', Number.POSITIVE_INFINITY, 'must be a number'],
    ['a numeric string', '100.5', 'must be a number'],
    ['null', null, 'must be a number'],
    ['a boolean', true, 'must be a number'],
  ])('rejects %s', (_label, value, reason) => {
    expect(parseAmount(value)).toEqual({ ok: false, reason });
  });

  it('round-trips every centavo amount from 0.01 to 1,000.00 and near the maximum', () => {
    for (let c = 1; c <= 100_000; c++) {
      const result = parseAmount(centavosToAmount(c));
      if (!result.ok || result.centavos !== c)
        expect.fail(`centavos ${c} came back as ${JSON.stringify(result)}`);
    }
    for (let c = MAX_AMOUNT_CENTAVOS - 10_000; c <= MAX_AMOUNT_CENTAVOS; c++) {
      expect(parseAmount(centavosToAmount(c))).toEqual({ ok: true, centavos: c });
    }
  });
});

describe('centavosToAmount', () => {
  it('gives the shortest wire number', () => {
    expect(centavosToAmount(10050)).toBe(100.5);
    expect(String(centavosToAmount(10050))).toBe('100.5');
    expect(centavosToAmount(1)).toBe(0.01);
    expect(centavosToAmount(9899)).toBe(98.99);
  });

  it('refuses a non-integer', () => {
    expect(() => centavosToAmount(1.5)).toThrow(RangeError);
  });
});

describe('feeFor', () => {
  it('matches the callback vector: 1.5 % of 100.50 is 1.51 (150.75 centavos rounded up)', () => {
    expect(feeFor(10050, { percentBps: 150, fixedCentavos: 0 })).toBe(151);
  });

  it('rounds the percent part half up', () => {
    expect(feeFor(100, { percentBps: 50, fixedCentavos: 0 })).toBe(1);
    expect(feeFor(100, { percentBps: 49, fixedCentavos: 0 })).toBe(0);
    expect(feeFor(300, { percentBps: 50, fixedCentavos: 0 })).toBe(2);
  });

  it('adds the fixed part', () => {
    expect(feeFor(10_000, { percentBps: 100, fixedCentavos: 350 })).toBe(450);
  });

  it('never exceeds the amount', () => {
    expect(feeFor(100, { percentBps: 0, fixedCentavos: 500 })).toBe(100);
    expect(feeFor(1, { percentBps: 10_000, fixedCentavos: 1 })).toBe(1);
  });

  it('is exact at the largest amount and rate', () => {
    expect(feeFor(MAX_AMOUNT_CENTAVOS, { percentBps: 10_000, fixedCentavos: 0 })).toBe(MAX_AMOUNT_CENTAVOS);
    expect(feeFor(MAX_AMOUNT_CENTAVOS, { percentBps: 1, fixedCentavos: 0 })).toBe(1_000_000);
  });

  it('refuses fractional or negative inputs and rates above 100 %', () => {
    expect(() => feeFor(100.5, { percentBps: 1, fixedCentavos: 0 })).toThrow(RangeError);
    expect(() => feeFor(100, { percentBps: -1, fixedCentavos: 0 })).toThrow(RangeError);
    expect(() => feeFor(100, { percentBps: 10_001, fixedCentavos: 0 })).toThrow(RangeError);
    expect(() => feeFor(100, { percentBps: 1.5, fixedCentavos: 0 })).toThrow(RangeError);
    expect(() => feeFor(100, { percentBps: 1, fixedCentavos: -1 })).toThrow(RangeError);
  });
});
