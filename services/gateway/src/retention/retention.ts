import { type RetentionRoundResult, type RetentionRule, retentionLoop } from '@agentpay/db';
import type { Logger } from '@agentpay/logger';
import { type BackgroundLoop, backgroundLoop } from '@agentpay/runtime';
import { Counter, type Registry } from '@agentpay/telemetry';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

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

/** The retention job: a background loop deleting due rows in batches; undefined when it is turned off. */
export function startRetention(deps: {
  db: Kysely<Database>;
  logger: Logger;
  keep: GatewayRetention;
  /** RETENTION_INTERVAL_MS: pause once nothing is due; 0 turns the job off. */
  intervalMs: number;
  /** RETENTION_BATCH: rows per batch. */
  batchSize: number;
  /** Where `retention_deleted_rows_total{table}` is registered. */
  registry?: Registry;
}): BackgroundLoop<RetentionRoundResult> | undefined {
  if (deps.intervalMs <= 0) return undefined;
  const deleted = new Counter({
    name: 'retention_deleted_rows_total',
    help: 'Rows the retention job deleted past their retention, by table',
    labelNames: ['table'],
    registers: deps.registry ? [deps.registry] : [],
  });
  return backgroundLoop(
    retentionLoop({
      ...deps,
      rules: gatewayRetentionRules(deps.keep),
      onDeleted: (table, rows) => deleted.inc({ table }, rows),
    }),
  );
}
