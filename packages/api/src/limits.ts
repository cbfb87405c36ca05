import type { PayoutLimits__Output, PayoutLimits as PayoutLimitsMessage } from '@agentpay/proto';
import { centavosToAmount } from '@agentpay/wire';

// The controls on where money goes (CONTRACT section 19): one shape of a merchant's limits from the
// gateway's store through the gRPC calls to the ledger's decision, and one rendering of it for merchants
// and operators.

/** A merchant's payout limits in effect: centavos (a count for dailyCount); null is no limit. */
export interface PayoutLimits {
  perTransfer: number | null;
  daily: number | null;
  dailyCount: number | null;
  monthly: number | null;
}

/** Every limit in effect for a merchant: its payouts', and its pay-ins' (checked by the gateway). */
export interface MerchantLimits {
  payout: PayoutLimits;
  payin: { perOrder: number | null };
}

/** Each payout limit's name as merchants read it: `msg` of 40008 names the one a payout would pass. */
export const PAYOUT_LIMIT_NAMES = {
  perTransfer: 'payout.perTransfer',
  daily: 'payout.daily',
  dailyCount: 'payout.dailyCount',
  monthly: 'payout.monthly',
} as const satisfies Record<keyof PayoutLimits, string>;

/** The name of the pay-in limit (`msg` of 30006). */
export const PAYIN_PER_ORDER = 'payin.perOrder';

/** No limit at all. */
export const NO_PAYOUT_LIMITS: PayoutLimits = {
  perTransfer: null,
  daily: null,
  dailyCount: null,
  monthly: null,
};

/** The gRPC message of `limits` (an absent Limit is no limit). */
export function payoutLimitsToProto(limits: PayoutLimits): PayoutLimitsMessage {
  const one = (value: number | null) => (value === null ? null : { value: String(value) });
  return {
    per_transfer: one(limits.perTransfer),
    daily: one(limits.daily),
    daily_count: one(limits.dailyCount),
    monthly: one(limits.monthly),
  };
}

/** The limits a gRPC message carries; undefined when it carries none (an older caller: no limits). */
export function payoutLimitsFromProto(
  message: PayoutLimits__Output | null | undefined,
): PayoutLimits | undefined {
  if (!message) return undefined;
  const one = (limit: { value: string } | null) => (limit ? Number(limit.value) : null);
  return {
    perTransfer: one(message.per_transfer),
    daily: one(message.daily),
    dailyCount: one(message.daily_count),
    monthly: one(message.monthly),
  };
}

/** Limits as the wire shows them: pesos with two decimals, the count as an integer, null for no limit. */
export function limitsView(limits: MerchantLimits): {
  payout: {
    perTransfer: number | null;
    daily: number | null;
    dailyCount: number | null;
    monthly: number | null;
  };
  payin: { perOrder: number | null };
} {
  const pesos = (value: number | null) => (value === null ? null : centavosToAmount(value));
  return {
    payout: {
      perTransfer: pesos(limits.payout.perTransfer),
      daily: pesos(limits.payout.daily),
      dailyCount: limits.payout.dailyCount,
      monthly: pesos(limits.payout.monthly),
    },
    payin: { perOrder: pesos(limits.payin.perOrder) },
  };
}
