import type { RetentionRule } from '@agentpay/db';

const DAY_MS = 86_400_000;

/**
 * The longest an order stays open: `expiredTime` must lie within 30 days of its creation (CONTRACT.md
 * "expiredTime"), and create-pay records the link after payments has created the order, so a link's
 * order has expired by `created_at` + 30 days at the latest.
 */
export const ORDER_MAX_OPEN_DAYS = 30;

/** How long the gateway keeps what every request writes (docs/deploy.md "Retention"). */
export interface GatewayRetention {
  /**
   * RATE_WINDOW_RETENTION_S: seconds a per-second rate window is kept after it starts; 0 keeps them
   * forever. Only the current second is ever read; the rest is for an operator looking at recent traffic.
   */
  rateWindowSeconds: number;
  /**
   * CASHIER_LINK_RETENTION_DAYS: days a cashier link is kept after its order expired at the latest; 0 keeps
   * them forever.
   */
  cashierLinkDays: number;
}

/**
 * The rules, each served by an index (nonces_expires_at_idx; rate_windows_window_start_idx of migration
 * 20261124T0200_retention_indexes; cashier_links_created_idx of 20261124T0400_cashier_links_created_index).
 * A nonce goes once its replay window (NONCE_TTL_S) has passed: a use after that is accepted anyway, so
 * the row guards nothing.
 *
 * A cashier link goes `ORDER_MAX_OPEN_DAYS` + `cashierLinkDays` after it was written: the table does not
 * hold the order's `expiredTime` (payments does), so the rule counts from the latest an order can expire.
 * An order with the default 24 h expiry keeps its link 29 days longer than the grace; none keeps it less.
 * Nothing else references a link. Once it is gone the page and its status endpoint answer the 404 of an
 * unknown order (the order itself stays in payments). Merchants and keys are kept.
 */
export function gatewayRetentionRules(keep: GatewayRetention): RetentionRule[] {
  const rules: RetentionRule[] = [{ name: 'nonces', table: 'nonces', timeColumn: 'expires_at', keepMs: 0 }];
  if (keep.rateWindowSeconds > 0)
    rules.push({
      name: 'rate_windows',
      table: 'rate_windows',
      timeColumn: 'window_start',
      keepMs: keep.rateWindowSeconds * 1000,
    });
  if (keep.cashierLinkDays > 0)
    rules.push({
      name: 'cashier_links',
      table: 'cashier_links',
      timeColumn: 'created_at',
      keepMs: (ORDER_MAX_OPEN_DAYS + keep.cashierLinkDays) * DAY_MS,
    });
  return rules;
}
