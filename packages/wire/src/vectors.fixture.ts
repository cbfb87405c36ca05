// Test-only: loads the signing vectors (sdks/vectors/signing.json) for the wire tests. Not exported from the package.
import { readFileSync } from 'node:fs';
import { parsePrivateKey, parsePublicKey } from './signing.js';

export type Signer = 'merchant' | 'platform';

export interface VectorCase {
  name: string;
  signer: Signer;
  object: Record<string, unknown>;
  canonical: string;
  sign: string;
}

export interface NegativeCase {
  name: string;
  signer: Signer;
  object: Record<string, unknown> & { sign: string };
  canonical: string;
  valid: boolean;
}

export interface Vectors {
  keys: Record<Signer, { privateKey: string; publicKey: string }>;
  cases: VectorCase[];
  negative: NegativeCase[];
}

// The published vectors and the extra cases every SDK reproduces (sdks/README.md).
const vectorsUrl = new URL('../../../sdks/vectors/signing.json', import.meta.url);

export const vectors = JSON.parse(readFileSync(vectorsUrl, 'utf8')) as Vectors;

export const keys = {
  merchant: {
    privateKey: parsePrivateKey(vectors.keys.merchant.privateKey),
    publicKey: parsePublicKey(vectors.keys.merchant.publicKey),
  },
  platform: {
    privateKey: parsePrivateKey(vectors.keys.platform.privateKey),
    publicKey: parsePublicKey(vectors.keys.platform.publicKey),
  },
};

/** The positive case called `name`; throws if the vectors file no longer has it. */
export function vectorCase(name: string): VectorCase {
  const found = vectors.cases.find((c) => c.name === name);
  if (!found) throw new Error(`signing vector "${name}" not found`);
  return found;
}
