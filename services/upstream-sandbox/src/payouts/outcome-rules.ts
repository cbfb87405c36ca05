import { institutionByClabePrefix, validateClabe, validateDebitCard } from '@agentpay/spei';
import { parseAmount } from '@agentpay/wire';
import type { PlannedOutcome } from '../db/schema.js';

// The tester-facing rules of docs/sandbox-guide.md, matched on the payee name ignoring case:
//   SYNCREJECT → the payout is refused at once (the platform's "created as fail" path)
//   REJECT     → accepted, then fails
//   RETURN     → accepted, succeeds, then is returned by the receiving bank
//   UNKNOWN    → an inquiry answers `unknown`
// Anything else that is well formed is valid and succeeds.
// Independently, for reconciliation tests, the daily statement:
//   NOSTATEMENT       → the payout runs as its other rules say, but the statement leaves it off
//   STATEMENT=<pesos> → the statement shows this amount for the payout instead of the real one

export const PAYEE_TYPES = ['spei_transfer', 'bank_card', 'user_id', 'open_id', 'login_name'] as const;
export type PayeeType = (typeof PAYEE_TYPES)[number];

export interface Payee {
  payeeType: string;
  account: string;
  name: string;
  /** The channel's own bank code: the 3-digit CLABE prefix of the payee's bank; empty for wallets. */
  bankCode: string;
}

/** Why the account is not one the channel can pay, or null when it is. */
export function accountProblem(payee: Payee): string | null {
  switch (payee.payeeType) {
    case 'spei_transfer': {
      if (!institutionByClabePrefix(payee.bankCode)) return 'unknown_bank_code';
      const clabe = validateClabe(payee.account);
      if (!clabe.ok) return `invalid_clabe_${clabe.reason}`;
      return payee.account.startsWith(payee.bankCode) ? null : 'bank_code_mismatch';
    }
    case 'bank_card': {
      if (!institutionByClabePrefix(payee.bankCode)) return 'unknown_bank_code';
      const card = validateDebitCard(payee.account);
      return card.ok ? null : `invalid_card_${card.reason}`;
    }
    case 'user_id':
    case 'open_id':
    case 'login_name':
      return payee.account.length >= 1 && payee.account.length <= 100 ? null : 'invalid_wallet_account';
    default:
      return 'unsupported_payee_type';
  }
}

/** The answer to a payee inquiry. */
export function inquiryResult(payee: Payee): 'valid' | 'invalid' | 'unknown' {
  if (accountProblem(payee) !== null) return 'invalid';
  return payee.name.toUpperCase().includes('UNKNOWN') ? 'unknown' : 'valid';
}

/** Whether a payout is refused at once (with why) or accepted, and then how it ends. */
export function payoutDecision(
  payee: Payee,
): { accepted: false; reason: string } | { accepted: true; outcome: Exclude<PlannedOutcome, 'none'> } {
  const problem = accountProblem(payee);
  if (problem !== null) return { accepted: false, reason: problem };
  const name = payee.name.toUpperCase();
  if (name.includes('SYNCREJECT')) return { accepted: false, reason: 'rejected_by_channel' };
  if (name.includes('REJECT')) return { accepted: true, outcome: 'fail' };
  if (name.includes('RETURN')) return { accepted: true, outcome: 'return' };
  return { accepted: true, outcome: 'succeed' };
}

const STATEMENT_AMOUNT = /STATEMENT=(\d+(?:\.\d{1,2})?)/;

/** How the daily statement misreports a payout, from its payee name: not at all, unless the tester asks. */
export function statementPlan(name: string): { omit: boolean; amount: number | null } {
  const upper = name.toUpperCase();
  const given = STATEMENT_AMOUNT.exec(upper)?.[1];
  const amount = given === undefined ? undefined : parseAmount(Number(given));
  return { omit: upper.includes('NOSTATEMENT'), amount: amount?.ok ? amount.centavos : null };
}
