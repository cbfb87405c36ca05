import { buildClabe, institutions, luhnValid } from '@agentpay/spei';
import { AppError } from '@agentpay/wire';
import { describe, expect, it } from 'vitest';
import { type AccountProblem, checkPayee, type PayeeInput } from './payee-account.js';

// Vectors: the valid examples of the note in shared/spec/data/spei-institutions.json, plus generated
// CLABEs and cards from a seeded PRNG, so a failure names a reproducible account.

const spei = (payeeAccount: string, payeeCode = ''): PayeeInput => ({
  payeeType: 'spei_transfer',
  payeeAccount,
  payeeCode,
});
const card = (payeeAccount: string, payeeCode = '40012'): PayeeInput => ({
  payeeType: 'bank_card',
  payeeAccount,
  payeeCode,
});

function problemOf(input: PayeeInput): AccountProblem | 'ok' {
  const result = checkPayee(input);
  return result.ok ? 'ok' : result.problem;
}

function codeThrown(input: PayeeInput): string | undefined {
  try {
    checkPayee(input);
    return undefined;
  } catch (err) {
    return err instanceof AppError ? err.codeName : String(err);
  }
}

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const digits = (next: () => number, n: number) =>
  Array.from({ length: n }, () => Math.floor(next() * 10)).join('');

/** A 16-digit number passing Luhn: 15 random digits plus the digit that makes the sum a multiple of 10. */
function luhnCard(next: () => number): string {
  const body = digits(next, 15);
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('unreachable');
}

describe('spei_transfer: the vectors of the data file note', () => {
  it.each([
    ['646180110400000007', '90646'],
    ['002010077777777771', '40002'],
    ['072691004495711499', '40072'],
  ])('%s is valid and its payee code is derived as %s', (clabe, code) => {
    const result = checkPayee(spei(clabe));
    expect(result).toEqual({
      ok: true,
      payee: { payeeType: 'spei_transfer', payeeAccount: clabe, payeeCode: code },
    });
  });

  it('032180000118359719 has a right check digit but is refused: prefix 032 is no listed institution', () => {
    expect(problemOf(spei('032180000118359719'))).toBe('unknown_bank');
  });

  it('accepts the matching Banxico code and refuses another bank as a mismatch (40005 class)', () => {
    expect(problemOf(spei('002010077777777771', '40002'))).toBe('ok');
    expect(problemOf(spei('002010077777777771', '40012'))).toBe('code_mismatch');
  });
});

describe('spei_transfer: format checks', () => {
  it('refuses wrong lengths, non-digits and a wrong check digit', () => {
    expect(problemOf(spei('00201007777777777'))).toBe('length');
    expect(problemOf(spei('0020100777777777711'))).toBe('length');
    expect(problemOf(spei('00201007777777777a'))).toBe('digits');
    expect(problemOf(spei(' 02010077777777771'))).toBe('digits');
    expect(problemOf(spei('002010077777777772'))).toBe('check_digit');
  });

  it('accepts a generated CLABE for every institution and derives its code', () => {
    const next = random(7);
    for (const institution of institutions) {
      const clabe = buildClabe(institution.clabe, digits(next, 3), digits(next, 11));
      const result = checkPayee(spei(clabe));
      expect(result.ok, clabe).toBe(true);
      expect(result.payee.payeeCode).toBe(institution.spei);
    }
  });

  it('refuses every single-digit change of 200 generated CLABEs', () => {
    const next = random(42);
    const banks = institutions.map((i) => i.clabe);
    for (let n = 0; n < 200; n++) {
      const clabe = buildClabe(banks[Math.floor(next() * banks.length)]!, digits(next, 3), digits(next, 11));
      expect(problemOf(spei(clabe))).toBe('ok');
      for (let i = 0; i < 18; i++) {
        const original = Number(clabe[i]);
        for (let d = 0; d <= 9; d++) {
          if (d === original) continue;
          const mutated = `${clabe.slice(0, i)}${d}${clabe.slice(i + 1)}`;
          // The 3,7,1 weights make every single-digit change alter the check sum mod 10.
          expect(problemOf(spei(mutated)), mutated).toBe('check_digit');
        }
      }
    }
  });
});

describe('payee codes', () => {
  it('refuses a raw upstream code such as 012 and an unknown code with 40002', () => {
    expect(codeThrown(spei('002010077777777771', '012'))).toBe('PAYEE_CODE_NOT_AVAILABLE');
    expect(codeThrown(spei('002010077777777771', '99999'))).toBe('PAYEE_CODE_NOT_AVAILABLE');
    expect(codeThrown(card('4111111111111111', '012'))).toBe('PAYEE_CODE_NOT_AVAILABLE');
  });

  it('checks the code before the account: an unknown code on a bad CLABE is still 40002', () => {
    expect(codeThrown(spei('123', '012'))).toBe('PAYEE_CODE_NOT_AVAILABLE');
  });

  it('refuses any code for a wallet type, whose public code list is empty', () => {
    expect(codeThrown({ payeeType: 'user_id', payeeAccount: 'u-1', payeeCode: '40012' })).toBe(
      'PAYEE_CODE_NOT_AVAILABLE',
    );
  });

  it('refuses an unknown payee type with 40001 before looking at anything else', () => {
    expect(codeThrown({ payeeType: 'paypal', payeeAccount: 'x', payeeCode: '012' })).toBe(
      'PAYEE_TYPE_NOT_AVAILABLE',
    );
  });
});

describe('bank_card', () => {
  it('accepts generated 16-digit Luhn numbers and refuses each single-digit change', () => {
    const next = random(3);
    for (let n = 0; n < 100; n++) {
      const number = luhnCard(next);
      expect(problemOf(card(number))).toBe('ok');
      for (let i = 0; i < 16; i++) {
        const d = (Number(number[i]) + 1 + Math.floor(next() * 9)) % 10;
        expect(problemOf(card(`${number.slice(0, i)}${d}${number.slice(i + 1)}`))).toBe('luhn');
      }
    }
  });

  it('refuses wrong lengths and non-digits', () => {
    expect(problemOf(card('411111111111111'))).toBe('length');
    expect(problemOf(card('41111111111111111'))).toBe('length');
    expect(problemOf(card('4111-11111111111'))).toBe('digits');
  });

  it('requires a payee code, naming the field', () => {
    try {
      checkPayee(card('4111111111111111', ''));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).codeName).toBe('INVALID_PARAMETER');
      expect((err as AppError).message).toContain('payeeCode');
    }
  });
});

describe('wallet types', () => {
  it.each(['user_id', 'open_id', 'login_name'])('%s accepts 1..100 opaque characters', (payeeType) => {
    expect(problemOf({ payeeType, payeeAccount: 'a', payeeCode: '' })).toBe('ok');
    expect(problemOf({ payeeType, payeeAccount: 'ñ'.repeat(100), payeeCode: '' })).toBe('ok');
    expect(problemOf({ payeeType, payeeAccount: 'x'.repeat(101), payeeCode: '' })).toBe('length');
    expect(problemOf({ payeeType, payeeAccount: '', payeeCode: '' })).toBe('empty');
  });
});
