import { describe, expect, it } from 'vitest';
import { bearerTokenMatches } from './auth.js';

describe('bearerTokenMatches', () => {
  it('accepts exactly the bearer token and refuses anything else', () => {
    expect(bearerTokenMatches('Bearer s3cret', 's3cret')).toBe(true);
    for (const header of [
      undefined,
      '',
      's3cret',
      'Bearer ',
      'Bearer s3cre',
      'Bearer s3cret ',
      'bearer s3cret',
    ]) {
      expect(bearerTokenMatches(header, 's3cret'), String(header)).toBe(false);
    }
  });
});
