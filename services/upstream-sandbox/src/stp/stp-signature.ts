// Checks a company's `firma`: RSA PKCS#1 v1.5 with SHA-256 over the UTF-8 cadena, standard Base64 on one
// line (CONTRACT.md section 16). Only the public half of a company's key is ever held here.
import { createPrivateKey, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { STP_DEMO_PASSPHRASE, STP_DEMO_PRIVATE_KEY_PEM } from '@agentpay/spei';

const BASE64_ONE_LINE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether `firma` is the signature of `cadena` by the key whose public half is `key`. */
export function firmaValid(cadena: string, firma: unknown, key: KeyObject): boolean {
  // A URL-safe alphabet, missing padding or a line break is not what STP accepts.
  if (typeof firma !== 'string' || firma.length === 0 || !BASE64_ONE_LINE.test(firma)) return false;
  try {
    return verify('sha256', Buffer.from(cadena, 'utf8'), key, Buffer.from(firma, 'base64'));
  } catch {
    return false;
  }
}

/** The public key of a PEM (a public key, or a private one whose public half is taken); throws if none. */
export function publicKeyOf(pem: string): KeyObject {
  return createPublicKey(pem);
}

/** The public half of STP's demo key, as PEM: the default company's key. */
export function demoPublicKeyPem(): string {
  const privateKey = createPrivateKey({ key: STP_DEMO_PRIVATE_KEY_PEM, passphrase: STP_DEMO_PASSPHRASE });
  return createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
}

/** Parsed public keys by PEM text, so a request does not parse its company's PEM again. */
export function publicKeyCache(): (pem: string) => KeyObject {
  const keys = new Map<string, KeyObject>();
  return (pem) => {
    let key = keys.get(pem);
    if (!key) {
      key = publicKeyOf(pem);
      if (keys.size > 100) keys.clear();
      keys.set(pem, key);
    }
    return key;
  };
}
