import { institutionBySpeiCode, validateClabe, validateDebitCard } from '@agentpay/spei';
import { AppError } from '@agentpay/wire';

/** Payee types of the seed's section 2.4. Whether a merchant's routes offer one is the router's answer. */
export const PAYEE_TYPES = ['spei_transfer', 'bank_card', 'user_id', 'open_id', 'login_name'] as const;
export type PayeeType = (typeof PAYEE_TYPES)[number];

/** Types whose payee code is a public Banxico institution code; wallet types have no public codes. */
const BANK_TYPES: ReadonlySet<PayeeType> = new Set(['spei_transfer', 'bank_card']);

const WALLET_ID_MAX = 100;

/** Why an account fails its type's format: 40005 on transfer, `invalid` on inquiry. */
export type AccountProblem =
  | 'length'
  | 'digits'
  | 'check_digit'
  | 'unknown_bank'
  | 'luhn'
  | 'code_mismatch'
  | 'empty';

export interface PayeeInput {
  payeeType: string;
  payeeAccount: string;
  /** Public payee code as submitted; '' when absent. */
  payeeCode: string;
}

/** The payee as the platform stores and sends it upstream: for SPEI the code is derived when absent. */
export interface Payee {
  payeeType: PayeeType;
  payeeAccount: string;
  payeeCode: string;
}

export type PayeeCheck = { ok: true; payee: Payee } | { ok: false; problem: AccountProblem; payee: Payee };

export function isPayeeType(value: string): value is PayeeType {
  return (PAYEE_TYPES as readonly string[]).includes(value);
}

/**
 * Checks a payee locally, before anything goes upstream, in this order:
 *  1. the payee type is one the platform knows (else 40001);
 *  2. the payee code: required for `bank_card` (10001 naming payeeCode); when given it must be a public
 *     Banxico code for the bank types, and wallet types have none (else 40002, also for raw upstream codes
 *     such as `012`);
 *  3. the account's format for its type (length, digits, check digit or Luhn, known bank prefix);
 *  4. for `spei_transfer`, the code must be the CLABE's bank (derived from the prefix when absent).
 * Steps 1-2 are about what the platform offers and throw; steps 3-4 are about the account and are
 * returned as data, so inquiry can answer `invalid` where transfer answers 40005.
 */
export function checkPayee(input: PayeeInput): PayeeCheck {
  const { payeeType, payeeAccount, payeeCode } = input;
  if (!isPayeeType(payeeType)) throw new AppError('PAYEE_TYPE_NOT_AVAILABLE', payeeType);

  if (payeeType === 'bank_card' && payeeCode === '')
    throw new AppError('INVALID_PARAMETER', 'payeeCode: required for bank_card');
  if (payeeCode !== '' && (!BANK_TYPES.has(payeeType) || !institutionBySpeiCode(payeeCode)))
    throw new AppError('PAYEE_CODE_NOT_AVAILABLE', `payeeCode ${payeeCode}`);

  const payee: Payee = { payeeType, payeeAccount, payeeCode };
  const refuse = (problem: AccountProblem): PayeeCheck => ({ ok: false, problem, payee });

  switch (payeeType) {
    case 'spei_transfer': {
      const clabe = validateClabe(payeeAccount);
      if (!clabe.ok) return refuse(clabe.reason);
      if (payeeCode !== '' && payeeCode !== clabe.institution.spei) return refuse('code_mismatch');
      return { ok: true, payee: { ...payee, payeeCode: clabe.institution.spei } };
    }
    case 'bank_card': {
      const card = validateDebitCard(payeeAccount);
      return card.ok ? { ok: true, payee } : refuse(card.reason);
    }
    case 'user_id':
    case 'open_id':
    case 'login_name':
      if (payeeAccount.length === 0) return refuse('empty');
      if (payeeAccount.length > WALLET_ID_MAX) return refuse('length');
      return { ok: true, payee };
    default: {
      const unreachable: never = payeeType;
      return unreachable;
    }
  }
}

/** Merchant-safe wording of an account problem; never echoes the account itself. */
export function describeProblem(problem: AccountProblem): string {
  switch (problem) {
    case 'length':
      return 'payeeAccount has the wrong length for its payee type';
    case 'digits':
      return 'payeeAccount must be digits only';
    case 'check_digit':
      return 'payeeAccount check digit is wrong';
    case 'unknown_bank':
      return 'payeeAccount bank prefix is not a known institution';
    case 'luhn':
      return 'payeeAccount fails the card checksum';
    case 'code_mismatch':
      return "payeeCode does not match the CLABE's bank";
    case 'empty':
      return 'payeeAccount is empty';
    default: {
      const unreachable: never = problem;
      return unreachable;
    }
  }
}
