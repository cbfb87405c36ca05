import { createPrivateKey, createPublicKey, KeyObject, sign, verify } from 'node:crypto';
import { canonicalString } from './canonical.js';

/** A key as PEM text or as a node:crypto KeyObject. */
export type KeyInput = string | KeyObject;

const MIN_RSA_BITS = 2048;
// Buffer.from(s, 'base64') skips characters it does not know; a signature must be strict Base64.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The merchant's RSA private key (PKCS#8 or PKCS#1 PEM, or a KeyObject), checked to be RSA ≥ 2048 bits. */
export function loadPrivateKey(key: KeyInput): KeyObject {
  const object = key instanceof KeyObject ? key : createPrivateKey(key);
  if (object.type !== 'private') throw new TypeError('privateKey: expected a private key');
  return checkRsa(object, 'privateKey');
}

/** An RSA public key (SPKI or PKCS#1 PEM, or a KeyObject), checked to be RSA ≥ 2048 bits. */
export function loadPublicKey(key: KeyInput, what = 'platformPublicKey'): KeyObject {
  if (typeof key === 'string' && /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) {
    // createPublicKey would quietly derive the public half; a private key here is a mix-up.
    throw new TypeError(`${what}: expected a public key, got a private key`);
  }
  const object = key instanceof KeyObject ? key : createPublicKey(key);
  if (object.type !== 'public') throw new TypeError(`${what}: expected a public key`);
  return checkRsa(object, what);
}

/** Base64 RSASSA-PKCS1-v1_5 SHA-256 signature of the canonical string of `obj`. */
export function signParams(obj: Record<string, unknown>, privateKey: KeyObject): string {
  return sign('sha256', Buffer.from(canonicalString(obj), 'utf8'), privateKey).toString('base64');
}

/** Whether `signature` is a valid signature of `obj`'s canonical string; never throws. */
export function verifySignature(
  obj: Record<string, unknown>,
  signature: unknown,
  publicKey: KeyObject,
): boolean {
  if (typeof signature !== 'string' || signature === '' || !BASE64.test(signature)) return false;
  try {
    return verify(
      'sha256',
      Buffer.from(canonicalString(obj), 'utf8'),
      publicKey,
      Buffer.from(signature, 'base64'),
    );
  } catch {
    // A value canonicalString cannot render, or a signature of the wrong length: not a valid signature.
    return false;
  }
}

function checkRsa(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') {
    throw new TypeError(`${what}: expected an RSA key, got ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) throw new TypeError(`${what}: RSA-${bits} is too short, at least 2048 bits`);
  return key;
}
