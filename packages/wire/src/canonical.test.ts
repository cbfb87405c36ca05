import { describe, expect, it } from 'vitest';
import { canonicalString, jcs } from './canonical.js';

describe('canonicalString', () => {
  it('drops sign, null, undefined and empty-string values but keeps false and 0', () => {
    const obj = { sign: 'abc', a: null, b: undefined, c: '', d: false, e: 0, f: 'x' };
    expect(canonicalString(obj)).toBe('d=false&e=0&f=x');
  });

  it('keeps a string of spaces, which is not empty', () => {
    expect(canonicalString({ a: ' ' })).toBe('a= ');
  });

  it('renders strings raw, with no escaping of &, =, quotes or unicode', () => {
    expect(canonicalString({ u: 'https://x/?a=1&b="2"', t: 'ñ — café 😀' })).toBe(
      't=ñ — café 😀&u=https://x/?a=1&b="2"',
    );
  });

  it('renders numbers in their ECMAScript shortest form', () => {
    expect(canonicalString({ a: 100.5, b: 1e21, c: 0.1, d: -0, e: 1e-7, f: 100.5, g: 5e-324 })).toBe(
      'a=100.5&b=1e+21&c=0.1&d=0&e=1e-7&f=100.5&g=5e-324',
    );
  });

  it('sorts keys by byte (code point) order, uppercase before lowercase, not by locale', () => {
    expect(canonicalString({ b: 1, a: 1, B: 1, _: 1, '1': 1, é: 1 })).toBe('1=1&B=1&_=1&a=1&b=1&é=1');
  });

  it('sorts a key above U+FFFF after U+FF5E (code point order, unlike UTF-16 order)', () => {
    expect(canonicalString({ '😀': 1, '\uff5e': 2 })).toBe('\uff5e=2&😀=1');
  });

  it('orders a key before its own extensions', () => {
    expect(canonicalString({ ab: 1, a: 2 })).toBe('a=2&ab=1');
  });

  it('renders nested objects and arrays as JCS, keeping nulls and empty strings inside them', () => {
    const obj = {
      data: { z: [3, { y: null, x: '' }], a: { c: true, b: 1.5 } },
      list: [] as unknown[],
      empty: {},
    };
    expect(canonicalString(obj)).toBe(
      'data={"a":{"b":1.5,"c":true},"z":[3,{"x":"","y":null}]}&empty={}&list=[]',
    );
  });

  it('refuses values that are not JSON', () => {
    expect(() => canonicalString({ a: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalString({ a: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    expect(() => canonicalString({ a: 1n })).toThrow(TypeError);
    expect(() => canonicalString({ a: { b: Number.NaN } })).toThrow(TypeError);
  });

  it('gives the empty string for an object with nothing to sign', () => {
    expect(canonicalString({ sign: 'x', a: null })).toBe('');
  });
});

describe('jcs', () => {
  it('matches the RFC 8785 §3.2.2 example', () => {
    const input = JSON.parse(String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`);
    expect(jcs(input)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it('sorts keys by UTF-16 code units as in the RFC 8785 §3.2.3 example', () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One", "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`);
    expect(jcs(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('renders -0 as 0 and large/small numbers in exponent form', () => {
    expect(jcs([-0, 1e21, 1e-7, 123456789012345680000])).toBe('[0,1e+21,1e-7,123456789012345680000]');
  });

  it('rejects non-finite numbers', () => {
    expect(() => jcs(Number.NaN)).toThrow(TypeError);
    expect(() => jcs([Number.NEGATIVE_INFINITY])).toThrow(TypeError);
  });

  it('skips undefined object members and writes undefined array items as null, like JSON.stringify', () => {
    expect(jcs({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
  });

  it('uses toJSON like JSON.stringify, so a Date signs as it serializes', () => {
    const d = new Date(Date.UTC(2026, 10, 21));
    expect(jcs({ d })).toBe(JSON.stringify({ d }));
  });

  it('escapes control characters and quotes in keys and values as JSON.stringify does', () => {
    const obj = { 'k"\n': 'v\u0001\\' };
    expect(jcs(obj)).toBe(JSON.stringify(obj));
  });
});
