import { createHash } from 'node:crypto';

/**
 * sha256 of a request's business parameters, key order irrelevant. Stored with the object so a repeat
 * of the same idempotency key can be told apart from a different request reusing it.
 */
export function fingerprintOf(fields: Readonly<Record<string, string | number>>): string {
  const entries = Object.keys(fields)
    .sort()
    .map((key) => [key, fields[key]]);
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}
