import { createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';
import { canonicalString } from './canonical.js';

/** Thrown when a PEM key is malformed, not RSA, or too short for the contract. */
export class KeyFormatError extends Error {
  override name = 'KeyFormatError';
}

const MIN_RSA_BITS = 2048;
const PEM_BEGIN = /-----BEGIN ([A-Z0-9 ]+)-----/;
// Strict standard Base64 with padding: Buffer.from(s, 'base64') silently skips junk, so check first.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Parses an RSA private key (PKCS#8 or PKCS#1 PEM, ≥ 2048 bits) or throws KeyFormatError. */
export function parsePrivateKey(pem: string): KeyObject {
  const label = pemLabel(pem);
  if (label !== 'PRIVATE KEY' && label !== 'RSA PRIVATE KEY') {
    throw new KeyFormatError(`expected an RSA private key in PKCS#8 or PKCS#1 PEM, got "${label}"`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (cause) {
    throw new KeyFormatError(`private key PEM could not be parsed: ${errorText(cause)}`, { cause });
  }
  return checkRsa(key, 'private key');
}

/** Parses an RSA public key (SPKI or PKCS#1 PEM, ≥ 2048 bits) or throws KeyFormatError. */
export function parsePublicKey(pem: string): KeyObject {
  const label = pemLabel(pem);
  // createPublicKey would happily derive a public key from a private one; refusing keeps a merchant's
  // private key from being stored as if it were public.
  if (label !== 'PUBLIC KEY' && label !== 'RSA PUBLIC KEY') {
    throw new KeyFormatError(`expected an RSA public key in SPKI or PKCS#1 PEM, got "${label}"`);
  }
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (cause) {
    throw new KeyFormatError(`public key PEM could not be parsed: ${errorText(cause)}`, { cause });
  }
  return checkRsa(key, 'public key');
}

/** Base64 RSASSA-PKCS1-v1_5 SHA-256 signature over the UTF-8 canonical string of `obj`. */
export function signObject(obj: Record<string, unknown>, privateKey: KeyObject): string {
  return sign('sha256', Buffer.from(canonicalString(obj), 'utf8'), privateKey).toString('base64');
}

/**
 * `signObject` on libuv's thread pool: the same bytes (PKCS#1 v1.5 is deterministic), without holding the
 * event loop for the RSA operation (about 0.3 ms each). For a process that signs many bodies at once.
 */
export function signObjectAsync(obj: Record<string, unknown>, privateKey: KeyObject): Promise<string> {
  const data = Buffer.from(canonicalString(obj), 'utf8');
  return new Promise((resolve, reject) => {
    sign('sha256', data, privateKey, (err, signature) =>
      err ? reject(err) : resolve(signature.toString('base64')),
    );
  });
}

/** True when any of `publicKeys` verifies `signature` over `obj`; false (never a throw) for a bad signature. */
export function verifyObject(
  obj: Record<string, unknown>,
  signature: string,
  publicKeys: KeyObject | readonly KeyObject[],
): boolean {
  if (typeof signature !== 'string' || signature === '' || !BASE64.test(signature)) return false;
  const sig = Buffer.from(signature, 'base64');
  const data = Buffer.from(canonicalString(obj), 'utf8');
  const keys = publicKeys instanceof KeyObject ? [publicKeys] : publicKeys;
  for (const key of keys) {
    try {
      if (verify('sha256', data, key, sig)) return true;
    } catch {
      // A signature of the wrong size for this key is a mismatch, not a server error.
    }
  }
  return false;
}

/** A fresh RSA-2048 key pair as PKCS#8 and SPKI PEM, for development and tests. */
export function generateKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: MIN_RSA_BITS,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyPem: publicKey };
}

function pemLabel(pem: unknown): string {
  if (typeof pem !== 'string') throw new KeyFormatError('key must be a PEM string');
  const label = PEM_BEGIN.exec(pem)?.[1];
  if (label === undefined) throw new KeyFormatError('key is not PEM: no "-----BEGIN ...-----" line');
  return label;
}

function checkRsa(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') {
    throw new KeyFormatError(`${what} is not RSA (got ${key.asymmetricKeyType ?? 'unknown'})`);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) {
    throw new KeyFormatError(`${what} is RSA-${bits}; at least ${MIN_RSA_BITS} bits are required`);
  }
  return key;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
