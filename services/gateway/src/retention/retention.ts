import type { RetentionRule } from '@agentpay/db';

/** How long the gateway keeps what every request writes (docs/deploy.md "Retention"). */
export interface GatewayRetention {
  /**
   * RATE_WINDOW_RETENTION_S: seconds a per-second rate window is kept after it starts; 0 keeps them
   * forever. Only the current second is ever read; the rest is for an operator looking at recent traffic.
   */
  rateWindowSeconds: number;
}

/**
 * The rules, each served by an index (nonces_expires_at_idx; rate_windows_window_start_idx of migration
 * 20261124T0200_retention_indexes). A nonce goes once its replay window (NONCE_TTL_S) has passed: a use
 * after that is accepted anyway, so the row guards nothing. Merchants, keys and cashier links are kept.
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
  return rules;
}
