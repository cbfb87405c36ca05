import type { FeeRate } from '@agentpay/wire';

/** The merchant a request is for, as the gateway authenticated it. */
export interface Merchant {
  mchNo: string;
  appId: string;
  feeRate: FeeRate;
}

/** What a merchant request carries besides its business parameters. */
export interface RequestContext {
  /** W3C traceparent of the merchant's request; every change it causes continues it. */
  traceparent: string;
  /** Epoch ms at which the caller stops waiting (Infinity: no deadline). */
  deadline: number;
}
