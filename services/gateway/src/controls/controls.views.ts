import type { PayoutUsage__Output, RegisteredPayee__Output } from '@agentpay/proto';
import { centavosToAmount } from '@agentpay/wire';

// How the controls on where money goes (CONTRACT section 19) read on the wire: usage in pesos as the
// limits are, and a registered payee in the merchant API's words.

/** A merchant's payout usage today and this month (Mexico City), as the ledger's Freeze counts it. */
export function usageView(usage: PayoutUsage__Output) {
  return {
    day: usage.day,
    payoutAmount: centavosToAmount(Number(usage.payout_amount)),
    payoutCount: Number(usage.payout_count),
    month: usage.month,
    monthAmount: centavosToAmount(Number(usage.month_amount)),
  };
}

/** A registered payee: `cooling` until `usableAt` (or a second person's approval), then `usable`. */
export function payeeView(payee: RegisteredPayee__Output) {
  return {
    payeeId: payee.payee_id,
    payeeType: payee.payee_type,
    payeeAccount: payee.payee_account,
    payeeName: payee.payee_name,
    payeeCode: payee.payee_code,
    status: payee.status,
    usableAt: payee.usable_at,
    registeredBy: payee.registered_by,
    approvedBy: payee.approved_by || null,
    createdAt: payee.created_at,
    removedAt: payee.removed_at || null,
  };
}
