import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldAscii, formatMonto, operationDay, parseMonto, parseTsLiquidacion } from './stp.text.js';

describe('formatMonto', () => {
  it('renders centavos as pesos with exactly two decimals', () => {
    expect(formatMonto(120)).toBe('1.20');
    expect(formatMonto(0)).toBe('0.00');
    expect(formatMonto(5)).toBe('0.05');
    expect(formatMonto(10_000)).toBe('100.00');
    expect(formatMonto(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('refuses negative, fractional and unsafe values', () => {
    expect(() => formatMonto(-1)).toThrow(RangeError);
    expect(() => formatMonto(1.5)).toThrow(RangeError);
    expect(() => formatMonto(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(() => formatMonto(Number.NaN)).toThrow(RangeError);
  });
});

describe('parseMonto', () => {
  it('reads JSON numbers by their decimal text', () => {
    expect(parseMonto(1.2)).toBe(120);
    expect(parseMonto(100)).toBe(10_000);
    expect(parseMonto(0.1)).toBe(10);
    expect(parseMonto(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996 as a float
    expect(parseMonto(1234567.89)).toBe(123456789);
  });

  it('reads strings with up to two decimals', () => {
    expect(parseMonto('1.20')).toBe(120);
    expect(parseMonto('1.2')).toBe(120);
    expect(parseMonto('7')).toBe(700);
    expect(parseMonto('0.05')).toBe(5);
  });

  it('refuses anything that is not a plain non-negative amount with at most two decimals', () => {
    for (const bad of [
      1.005,
      -1,
      Number.NaN,
      Infinity,
      1e21,
      '1.005',
      '-1.00',
      '1e3',
      ' 1.00',
      '1.',
      '.5',
      '',
      'abc',
      null,
      undefined,
      true,
      {},
    ]) {
      expect(parseMonto(bad), String(bad)).toBeUndefined();
    }
  });

  it('round-trips every centavos value up to 10^13 through its text and its JSON number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 13 }), (centavos) => {
        const text = formatMonto(centavos);
        expect(parseMonto(text)).toBe(centavos);
        expect(parseMonto(Number(text))).toBe(centavos);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('foldAscii', () => {
  it('strips diacritics and folds ñ', () => {
    expect(foldAscii('José Muñoz Ñúñez', 39)).toBe('Jose Munoz Nunez');
    expect(foldAscii('Ærøskøbing Straße', 39)).toBe('AEroskobing Strasse');
  });

  it('keeps only letters, digits, space and . , - and never the cadena separator', () => {
    expect(foldAscii('Pago|factura #12 (mayo) & "IVA"', 39)).toBe('Pago factura 12 mayo IVA');
    expect(foldAscii('S.A. de C.V., Rivera-López', 39)).toBe('S.A. de C.V., Rivera-Lopez');
    expect(foldAscii('emoji 💸 ok\ttab\nline', 39)).toBe('emoji ok tab line');
  });

  it('collapses spaces, trims and cuts to max without a trailing space', () => {
    expect(foldAscii('   a    b   ', 39)).toBe('a b');
    expect(foldAscii('abcdef ghij', 7)).toBe('abcdef');
    expect(foldAscii('x'.repeat(50), 39)).toHaveLength(39);
    expect(foldAscii('日本語', 39)).toBe('');
  });
});

describe('operationDay', () => {
  it('is the Mexico City wall-clock day', () => {
    // 05:30 UTC is 23:30 the day before in Mexico City (UTC-6, no daylight saving since 2022).
    expect(operationDay(new Date('2024-01-02T05:30:00Z'))).toBe('20240101');
    expect(operationDay(new Date('2024-01-02T06:00:00Z'))).toBe('20240102');
    // In 2021 Mexico City still kept daylight saving (UTC-5 in July).
    expect(operationDay(new Date('2021-07-01T04:59:00Z'))).toBe('20210630');
    expect(operationDay(new Date('2021-07-01T05:00:00Z'))).toBe('20210701');
  });
});

describe('parseTsLiquidacion', () => {
  it('reads epoch milliseconds as a number or a string', () => {
    expect(parseTsLiquidacion(1609257595123)?.toISOString()).toBe('2020-12-29T15:59:55.123Z');
    expect(parseTsLiquidacion('1609257595123')?.toISOString()).toBe('2020-12-29T15:59:55.123Z');
  });

  it('is undefined for anything else', () => {
    for (const bad of [null, undefined, '', 'abc', '2020-12-29', 1.5, 0, -1, Number.NaN, {}]) {
      expect(parseTsLiquidacion(bad), String(bad)).toBeUndefined();
    }
  });
});
