import type { PayoutLimits } from '@agentpay/api';
import type { FeeRate } from '@agentpay/wire';

/** The merchant a request is for, as the gateway authenticated it. */
export interface Merchant {
  mchNo: string;
  appId: string;
  feeRate: FeeRate;
  /** Payout limits in effect (the ledger counts and decides in the freeze); absent: none. */
  payoutLimits?: PayoutLimits | undefined;
  /** Transfers go only to registered, usable payees (CONTRACT section 19). */
  registeredPayeesOnly: boolean;
}

/** What a merchant request carries besides its business parameters. */
export interface RequestContext {
  /** W3C traceparent of the merchant's request; every change it causes continues it. */
  traceparent: string;
  /** Epoch ms at which the caller stops waiting (Infinity: no deadline). */
  deadline: number;
}
