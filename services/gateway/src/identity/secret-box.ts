import { createCipheriv, createDecipheriv, hkdfSync, type KeyObject, randomBytes } from 'node:crypto';

/** AES-256-GCM with a random 96-bit nonce; `context` (the row's id) is bound as associated data. */
export interface SecretBox {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** A box under a key derived (HKDF-SHA-256) from PEOPLE_SECRET_KEY or, outside production, the platform key. */
export function createSecretBox(keyMaterial: Buffer): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', keyMaterial, Buffer.alloc(0), 'agentpay people secrets', 32));
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/** PEOPLE_SECRET_KEY when set (required in production); otherwise derived from the platform private key. */
export function peopleSecret(configured: string | undefined, platformPrivateKey: KeyObject): Buffer {
  if (configured) return Buffer.from(configured, 'utf8');
  const der = platformPrivateKey.export({ type: 'pkcs8', format: 'der' });
  return Buffer.from(hkdfSync('sha256', der, Buffer.alloc(0), 'agentpay people secret key', 32));
}
