import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parsePrivateKey } from './signing.js';

export interface PlatformKey {
  privateKey: KeyObject;
  /** SPKI PEM that merchants use to verify replies and callbacks. */
  publicKeyPem: string;
}

/**
 * Loads the platform key pair from `pem`, else from `file`. Outside production a missing file is
 * created with a new RSA-2048 key, so a fresh stack signs at once; in production a missing key is fatal.
 */
export function loadPlatformKey(opts: {
  pem?: string | undefined;
  file: string;
  production: boolean;
}): PlatformKey {
  const pem = opts.pem ?? readOrCreate(opts.file, opts.production);
  const privateKey = parsePrivateKey(pem);
  const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  return { privateKey, publicKeyPem };
}

function readOrCreate(file: string, production: boolean): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    if (production) {
      throw new Error(
        `platform private key not found at ${file}; set PLATFORM_PRIVATE_KEY or PLATFORM_PRIVATE_KEY_FILE`,
      );
    }
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  mkdirSync(dirname(file), { recursive: true });
  try {
    // 'wx' fails if another service created the file first; then that one's key wins for everyone.
    writeFileSync(file, pem, { flag: 'wx', mode: 0o600 });
    return pem;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8');
    throw err;
  }
}
