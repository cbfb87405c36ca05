/**
 * Requests per client address in fixed one-minute windows, in this replica's memory: the cashier is
 * reached by payers, not merchants, so there is no merchant to count against in the shared store, and a
 * payer's page polls from one replica's point of view as often as from several.
 */
export interface AddressLimiter {
  /** Counts one request from `address`; true when it is over the limit. */
  limited(address: string, now?: number): boolean;
}

/** At most this many addresses are tracked per window; beyond it new addresses are refused, not tracked. */
const MAX_ADDRESSES = 100_000;

export function createAddressLimiter(perMinute: number): AddressLimiter {
  let window = -1;
  let counts = new Map<string, number>();
  return {
    limited(address, now = Date.now()) {
      const current = Math.floor(now / 60_000);
      if (current !== window) {
        window = current;
        counts = new Map();
      }
      const count = counts.get(address);
      if (count === undefined && counts.size >= MAX_ADDRESSES) return true;
      const next = (count ?? 0) + 1;
      counts.set(address, next);
      return next > perMinute;
    },
  };
}
