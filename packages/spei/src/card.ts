/** Why a debit card number was refused, in the order the checks run. */
export type DebitCardError = 'length' | 'digits' | 'luhn';

const DIGITS = /^\d+$/;

/** True when `digits` is a non-empty digit string whose Luhn checksum is 0. */
export function luhnValid(digits: string): boolean {
  if (typeof digits !== 'string' || !DIGITS.test(digits)) return false;
  let sum = 0;
  // Double every second digit counting from the right, i.e. those with the check digit's parity flipped.
  const parity = digits.length % 2;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(i) - 48;
    if (i % 2 === parity) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Checks a debit card number for `bank_card` payouts: exactly 16 digits passing Luhn. */
export function validateDebitCard(value: string): { ok: true } | { ok: false; reason: DebitCardError } {
  if (typeof value !== 'string' || value.length !== 16) return { ok: false, reason: 'length' };
  if (!DIGITS.test(value)) return { ok: false, reason: 'digits' };
  return luhnValid(value) ? { ok: true } : { ok: false, reason: 'luhn' };
}
