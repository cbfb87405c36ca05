import { describe, expect, it } from 'vitest';
import { requestFingerprint } from './fingerprint.js';

describe('requestFingerprint', () => {
  it('is the same for the same fields in any order and differs when one value changes', () => {
    const a = requestFingerprint({ amount: 100, title: 'T', notifyUrl: 'https://m.example/n' });
    expect(requestFingerprint({ notifyUrl: 'https://m.example/n', title: 'T', amount: 100 })).toBe(a);
    expect(requestFingerprint({ amount: 101, title: 'T', notifyUrl: 'https://m.example/n' })).not.toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells an absent field from an empty one only by its key, and a number from its text', () => {
    expect(requestFingerprint({ a: '' })).not.toBe(requestFingerprint({}));
    expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: '1' }));
  });
});
