import { randomBytes } from 'node:crypto';

export const RECOVERY_CODES = 10;

/** Recovery codes are typed by hand: case, spaces and dashes do not matter. */
export const normaliseRecovery = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function recoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
