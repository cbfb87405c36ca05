import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { institutionByClabePrefix, institutionBySpeiCode, institutions } from './institutions.js';

describe('institutions', () => {
  it('holds the SPEI participants with unique codes and 3-digit prefixes', () => {
    expect(institutions.length).toBeGreaterThan(50);
    expect(new Set(institutions.map((i) => i.spei)).size).toBe(institutions.length);
    expect(new Set(institutions.map((i) => i.clabe)).size).toBe(institutions.length);
    for (const i of institutions) {
      expect(i.clabe).toMatch(/^\d{3}$/);
      expect(i.spei).toMatch(/^\d{4,5}$/);
    }
  });

  it('matches shared/spec/data/spei-institutions.json when that checkout is present', () => {
    const url = new URL('../../../../shared/spec/data/spei-institutions.json', import.meta.url);
    let shared: { institutions: unknown[] };
    try {
      shared = JSON.parse(readFileSync(url, 'utf8'));
    } catch {
      return;
    }
    expect(institutions).toEqual(shared.institutions);
  });

  it('is frozen so callers cannot edit the shared table', () => {
    expect(Object.isFrozen(institutions)).toBe(true);
    expect(Object.isFrozen(institutions[0])).toBe(true);
  });

  it('finds BBVA MEXICO by SPEI code and by CLABE prefix', () => {
    expect(institutionBySpeiCode('40012')).toEqual({ spei: '40012', clabe: '012', name: 'BBVA MEXICO' });
    expect(institutionByClabePrefix('012')).toBe(institutionBySpeiCode('40012'));
  });

  it('returns undefined for unknown codes and prefixes', () => {
    expect(institutionBySpeiCode('99999')).toBeUndefined();
    expect(institutionByClabePrefix('999')).toBeUndefined();
  });
});
