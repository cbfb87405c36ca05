import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalString } from './canonical.js';
import {
  generateKeyPair,
  KeyFormatError,
  parsePrivateKey,
  parsePublicKey,
  signObject,
  verifyObject,
} from './signing.js';
import { keys, vectors } from './vectors.fixture.js';

const otherSigner = { merchant: 'platform', platform: 'merchant' } as const;

describe('signing vectors (sdks/vectors/signing.json)', () => {
  it('has cases and negative cases to check', () => {
    expect(vectors.cases.length).toBeGreaterThan(0);
    expect(vectors.negative.length).toBeGreaterThan(0);
  });

  describe.each(vectors.cases)('$name', (vector) => {
    it('reproduces the canonical string byte for byte', () => {
      expect(canonicalString(vector.object)).toBe(vector.canonical);
    });

    it('reproduces the signature byte for byte', () => {
      expect(signObject(vector.object, keys[vector.signer].privateKey)).toBe(vector.sign);
    });

    it("verifies with the signer's public key and not with the other key", () => {
      expect(verifyObject(vector.object, vector.sign, keys[vector.signer].publicKey)).toBe(true);
      expect(verifyObject(vector.object, vector.sign, keys[otherSigner[vector.signer]].publicKey)).toBe(
        false,
      );
    });

    it('verifies when the right key is any of several (key rotation)', () => {
      const both = [keys[otherSigner[vector.signer]].publicKey, keys[vector.signer].publicKey];
      expect(verifyObject(vector.object, vector.sign, both)).toBe(true);
    });
  });

  describe.each(vectors.negative)('negative: $name', (vector) => {
    it('canonicalizes the tampered object as the vector says', () => {
      expect(canonicalString(vector.object)).toBe(vector.canonical);
    });

    it('does not verify', () => {
      const ok = verifyObject(vector.object, vector.object.sign, [
        keys.merchant.publicKey,
        keys.platform.publicKey,
      ]);
      expect(ok).toBe(vector.valid);
      expect(ok).toBe(false);
    });
  });
});

describe('verifyObject', () => {
  const obj = { mchNo: 'M1', reqTime: '2026-11-21 10:15:00', amount: 1 };
  const good = signObject(obj, keys.merchant.privateKey);
  const pub = keys.merchant.publicKey;

  it('rejects a signature after any signed field changes', () => {
    expect(verifyObject({ ...obj, amount: 1.01 }, good, pub)).toBe(false);
    expect(verifyObject({ ...obj, extra: 'x' }, good, pub)).toBe(false);
  });

  it('ignores the sign field and dropped empty fields of the object it verifies', () => {
    expect(verifyObject({ ...obj, sign: 'whatever', note: '', attach: null }, good, pub)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['not base64', '@@@@'],
    ['base64 with whitespace', `${good.slice(0, 10)} ${good.slice(10)}`],
    ['unpadded', good.replace(/=+$/, '')],
    ['too short', good.slice(0, 40)],
    ['too long', `${good}AAAA`],
    ['right length, wrong bytes', Buffer.alloc(256, 7).toString('base64')],
  ])('returns false without throwing for a signature that is %s', (_label, signature) => {
    expect(verifyObject(obj, signature, pub)).toBe(false);
  });

  it('returns false for a non-string signature', () => {
    expect(verifyObject(obj, 42 as unknown as string, pub)).toBe(false);
  });

  it('returns false when no keys are given', () => {
    expect(verifyObject(obj, good, [])).toBe(false);
  });
});

describe('generateKeyPair', () => {
  it('produces a PKCS#8 / SPKI RSA-2048 pair that signs and verifies', () => {
    const { privateKeyPem, publicKeyPem } = generateKeyPair();
    expect(privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const privateKey = parsePrivateKey(privateKeyPem);
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const obj = { a: 'b' };
    expect(verifyObject(obj, signObject(obj, privateKey), parsePublicKey(publicKeyPem))).toBe(true);
  });
});

describe('key parsing', () => {
  const rsa2048 = vectors.keys.merchant;
  const rsa1024 = generateKeyPairSync('rsa', {
    modulusLength: 1024,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const ec = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });

  it('accepts PKCS#1 PEM for private and public RSA keys', () => {
    const pkcs1Private = parsePrivateKey(rsa2048.privateKey)
      .export({ type: 'pkcs1', format: 'pem' })
      .toString();
    const pkcs1Public = parsePublicKey(rsa2048.publicKey).export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(pkcs1Private).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    expect(pkcs1Public).toMatch(/^-----BEGIN RSA PUBLIC KEY-----/);
    const obj = { x: 1 };
    expect(
      verifyObject(obj, signObject(obj, parsePrivateKey(pkcs1Private)), parsePublicKey(pkcs1Public)),
    ).toBe(true);
  });

  it('rejects an EC key as not RSA', () => {
    expect(() => parsePrivateKey(ec.privateKey)).toThrow(KeyFormatError);
    expect(() => parsePrivateKey(ec.privateKey)).toThrow(/not RSA \(got ec\)/);
    expect(() => parsePublicKey(ec.publicKey)).toThrow(/not RSA \(got ec\)/);
  });

  it('rejects a 1024-bit RSA key as too short', () => {
    expect(() => parsePrivateKey(rsa1024.privateKey)).toThrow(KeyFormatError);
    expect(() => parsePrivateKey(rsa1024.privateKey)).toThrow(/RSA-1024; at least 2048 bits/);
    expect(() => parsePublicKey(rsa1024.publicKey)).toThrow(/RSA-1024; at least 2048 bits/);
  });

  it('rejects text that is not PEM', () => {
    expect(() => parsePrivateKey('not a key')).toThrow(/not PEM/);
    expect(() => parsePublicKey('')).toThrow(/not PEM/);
  });

  it('rejects a PEM whose body is garbage', () => {
    const garbage = '-----BEGIN PUBLIC KEY-----\nAAAAgarbage\n-----END PUBLIC KEY-----\n';
    expect(() => parsePublicKey(garbage)).toThrow(KeyFormatError);
    expect(() => parsePublicKey(garbage)).toThrow(/could not be parsed/);
  });

  it('refuses a private key offered as a public key, and the reverse', () => {
    expect(() => parsePublicKey(rsa2048.privateKey)).toThrow(/expected an RSA public key.*"PRIVATE KEY"/);
    expect(() => parsePrivateKey(rsa2048.publicKey)).toThrow(/expected an RSA private key.*"PUBLIC KEY"/);
  });
});
