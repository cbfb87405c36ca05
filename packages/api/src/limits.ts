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

/**
 * A merchant's own limits as stored: a field present overrides the platform default (null removes the
 * limit), a field left out keeps the default. Centavos (a count for dailyCount).
 */
export interface OwnLimits {
  payout?: Partial<PayoutLimits>;
  payin?: { perOrder?: number | null };
}

/** The limits in effect: the merchant's own where it set them, else the platform's default. */
export function resolveLimits(own: OwnLimits, defaults: MerchantLimits): MerchantLimits {
  const pick = <T extends object, K extends keyof T>(mine: Partial<T> | undefined, base: T, key: K): T[K] =>
    mine && key in mine ? (mine[key] as T[K]) : base[key];
  const p = own.payout;
  return {
    payout: {
      perTransfer: pick(p, defaults.payout, 'perTransfer'),
      daily: pick(p, defaults.payout, 'daily'),
      dailyCount: pick(p, defaults.payout, 'dailyCount'),
      monthly: pick(p, defaults.payout, 'monthly'),
    },
    payin: { perOrder: pick(own.payin, defaults.payin, 'perOrder') },
  };
}

/** Whether `next` only lowers or keeps every limit of `current` (a lowering may take effect at once). */
export function onlyLowers(current: MerchantLimits, next: MerchantLimits): boolean {
  const lower = (now: number | null, then: number | null) => then !== null && (now === null || then <= now);
  const same = (now: number | null, then: number | null) => now === then;
  const pairs: [number | null, number | null][] = [
    [current.payout.perTransfer, next.payout.perTransfer],
    [current.payout.daily, next.payout.daily],
    [current.payout.dailyCount, next.payout.dailyCount],
    [current.payout.monthly, next.payout.monthly],
    [current.payin.perOrder, next.payin.perOrder],
  ];
  return pairs.every(([now, then]) => same(now, then) || lower(now, then));
}
