import { describe, expect, it } from 'vitest';
import { foldId, foldName } from './fold.js';

describe('foldName', () => {
  it('folds case, accents, punctuation and word order alike', () => {
    const folded = foldName('Juan Pérez López');
    expect(folded).toBe('juan lopez perez');
    expect(foldName('PÉREZ LÓPEZ, Juan')).toBe(folded);
    expect(foldName('  lopez   perez.  JUAN ')).toBe(folded);
  });

  it('takes the tilde off ñ and keeps digits', () => {
    expect(foldName('Ñoño Muñoz 3')).toBe('3 munoz nono');
  });

  it('keeps distinct names distinct', () => {
    expect(foldName('Juan Pérez')).not.toBe(foldName('Juana Pérez'));
  });

  it('answers empty for a name without letters or digits', () => {
    expect(foldName(' ,.- ')).toBe('');
  });
});

describe('foldId', () => {
  it('upper-cases and drops separators', () => {
    expect(foldId('pelj-800101-ab1')).toBe('PELJ800101AB1');
    expect(foldId('R.F.C. ')).toBe('RFC');
  });
});
