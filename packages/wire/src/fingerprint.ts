import { createHash } from 'node:crypto';

/**
 * sha256 of a request's business parameters, key order irrelevant. Stored with the object its idempotency
 * key created (a pay order, a transfer, an inquiry), so a repeat of the same request can be told apart
 * from a different request reusing the key. Leave out what is not business (app, address, nonce, time).
 */
export function requestFingerprint(fields: Readonly<Record<string, string | number>>): string {
  const entries = Object.keys(fields)
    .sort()
    .map((key) => [key, fields[key]]);
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}
