import { type Institution, institutionByClabePrefix } from './institutions.js';

/** Why a CLABE was refused, in the order the checks run. */
export type ClabeError = 'length' | 'digits' | 'check_digit' | 'unknown_bank';

const WEIGHTS = [3, 7, 1] as const;
const DIGITS = /^\d+$/;

/** Check digit for the first 17 digits of a CLABE: weights 3,7,1 repeated, each product mod 10. */
export function clabeCheckDigit(first17: string): number {
  if (first17.length !== 17 || !DIGITS.test(first17)) {
    throw new RangeError(`clabeCheckDigit: expected 17 digits, got ${JSON.stringify(first17)}`);
  }
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += ((first17.charCodeAt(i) - 48) * WEIGHTS[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10;
}

/** Checks an 18-digit CLABE's format, check digit and bank prefix. */
export function validateClabe(
  value: string,
): { ok: true; institution: Institution } | { ok: false; reason: ClabeError } {
  if (typeof value !== 'string' || value.length !== 18) return { ok: false, reason: 'length' };
  if (!DIGITS.test(value)) return { ok: false, reason: 'digits' };
  if (clabeCheckDigit(value.slice(0, 17)) !== value.charCodeAt(17) - 48)
    return { ok: false, reason: 'check_digit' };
  const institution = institutionByClabePrefix(value.slice(0, 3));
  return institution ? { ok: true, institution } : { ok: false, reason: 'unknown_bank' };
}

/** A CLABE from bank prefix (3 digits), plaza (3) and account (11), with its check digit appended. */
export function buildClabe(bankPrefix: string, plaza: string, account11: string): string {
  const first17 = `${bankPrefix}${plaza}${account11}`;
  if (bankPrefix.length !== 3 || plaza.length !== 3 || account11.length !== 11 || !DIGITS.test(first17)) {
    throw new RangeError(
      `buildClabe: expected 3+3+11 digits, got ${JSON.stringify(bankPrefix)}, ${JSON.stringify(plaza)}, ${JSON.stringify(account11)}`,
    );
  }
  return `${first17}${clabeCheckDigit(first17)}`;
}
