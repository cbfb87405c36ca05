import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalString } from './canonical.js';
import { loadPrivateKey, loadPublicKey, signParams, verifySignature } from './signing.js';

// The signing vectors (sdks/vectors/signing.json: the published ones and the extra cases of every SDK),
// reproduced with the SDK's own code only: a merchant who installs the SDK signs exactly as the platform.

type Signer = 'merchant' | 'platform';
interface Vectors {
  keys: Record<Signer, { privateKey: string; publicKey: string }>;
  cases: { name: string; signer: Signer; object: Record<string, unknown>; canonical: string; sign: string }[];
  negative: {
    name: string;
    signer: Signer;
    object: Record<string, unknown> & { sign: string };
    canonical: string;
    valid: boolean;
  }[];
}

const vectors = JSON.parse(
  readFileSync(new URL('../../../sdks/vectors/signing.json', import.meta.url), 'utf8'),
) as Vectors;

const keys = {
  merchant: {
    privateKey: loadPrivateKey(vectors.keys.merchant.privateKey),
    publicKey: loadPublicKey(vectors.keys.merchant.publicKey),
  },
  platform: {
    privateKey: loadPrivateKey(vectors.keys.platform.privateKey),
    publicKey: loadPublicKey(vectors.keys.platform.publicKey),
  },
};

describe('signing vectors, with the SDK code', () => {
  it('has cases to check', () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(8);
    expect(vectors.negative.length).toBeGreaterThanOrEqual(1);
  });

  describe.each(vectors.cases)('$name', (c) => {
    it('builds the canonical string byte for byte', () => {
      expect(canonicalString(c.object)).toBe(c.canonical);
    });

    it('signs byte for byte with the signer key', () => {
      expect(signParams(c.object, keys[c.signer].privateKey)).toBe(c.sign);
    });

    it('verifies the published signature, also with sign inside the object', () => {
      expect(verifySignature(c.object, c.sign, keys[c.signer].publicKey)).toBe(true);
      expect(verifySignature({ ...c.object, sign: c.sign }, c.sign, keys[c.signer].publicKey)).toBe(true);
    });

    it('refuses the signature under the other key', () => {
      const other = c.signer === 'merchant' ? 'platform' : 'merchant';
      expect(verifySignature(c.object, c.sign, keys[other].publicKey)).toBe(false);
    });
  });

  describe.each(vectors.negative)('negative: $name', (c) => {
    it('builds its canonical string and judges the signature as the vector says', () => {
      expect(canonicalString(c.object)).toBe(c.canonical);
      expect(verifySignature(c.object, c.object.sign, keys[c.signer].publicKey)).toBe(c.valid);
    });
  });
});
