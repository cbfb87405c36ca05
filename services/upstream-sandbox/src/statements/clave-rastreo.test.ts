import { describe, expect, it } from 'vitest';
import { newClaveRastreo, statementDay } from './clave-rastreo.js';

describe('statementDay', () => {
  it('is the Mexico City wall-clock day, not the UTC one', () => {
    // Mexico City is UTC-6 all year since 2022: 05:59:59.999 UTC is still the day before there.
    expect(statementDay(new Date('2026-11-24T05:59:59.999Z'))).toBe('2026-11-23');
    expect(statementDay(new Date('2026-11-24T06:00:00.000Z'))).toBe('2026-11-24');
  });
});

describe('newClaveRastreo', () => {
  it('is at most 30 characters, alphanumeric, names the kind and the Mexico City day', () => {
    const at = new Date('2026-11-24T05:30:00Z');
    const keys = {
      deposit: newClaveRastreo('deposit', at),
      payout: newClaveRastreo('payout', at),
      payout_return: newClaveRastreo('payout_return', at),
    };
    for (const key of Object.values(keys)) {
      expect(key.length).toBeLessThanOrEqual(30);
      expect(key).toMatch(/^[A-Z0-9]+$/);
    }
    expect(keys.deposit).toMatch(/^SBXD20261123[0-9A-F]{16}$/);
    expect(keys.payout).toMatch(/^SBXP20261123/);
    expect(keys.payout_return).toMatch(/^SBXR20261123/);
  });

  it('does not repeat across many keys made at the same instant', () => {
    const at = new Date();
    const keys = new Set(Array.from({ length: 10_000 }, () => newClaveRastreo('deposit', at)));
    expect(keys.size).toBe(10_000);
  });
});
