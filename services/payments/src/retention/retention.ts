import {
  publishedOutboxRule,
  type RetentionRoundResult,
  type RetentionRule,
  retentionLoop,
} from '@agentpay/db';
import type { Logger } from '@agentpay/logger';
import { type BackgroundLoop, backgroundLoop } from '@agentpay/runtime';
import { Counter, type Registry } from '@agentpay/telemetry';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

const DAY_MS = 86_400_000;

/** How long payments keeps what grows with traffic, in days; 0 keeps it forever (docs/deploy.md "Retention"). */
export interface PaymentsRetention {
  /** OUTBOX_RETENTION_DAYS: published outbox rows; an unpublished row is never deleted. */
  outboxDays: number;
  /** STATUS_HISTORY_RETENTION_DAYS: rows of pay_order_status_history. The orders themselves are kept. */
  statusHistoryDays: number;
}

/** The rules the settings turn on. Each is served by an index (migration 20261124T0200_retention_indexes). */
export function paymentsRetentionRules(keep: PaymentsRetention): RetentionRule[] {
  const rules: RetentionRule[] = [];
  if (keep.outboxDays > 0) rules.push(publishedOutboxRule(keep.outboxDays * DAY_MS));
  if (keep.statusHistoryDays > 0)
    rules.push({
      name: 'pay_order_status_history',
      table: 'pay_order_status_history',
      timeColumn: 'created_at',
      keepMs: keep.statusHistoryDays * DAY_MS,
    });
  return rules;
}

/** The retention job: a background loop deleting due rows in batches; undefined when nothing is turned on. */
export function startRetention(deps: {
  db: Kysely<Database>;
  logger: Logger;
  keep: PaymentsRetention;
  /** RETENTION_INTERVAL_MS: pause once nothing is due; 0 turns the job off. */
  intervalMs: number;
  /** RETENTION_BATCH: rows per batch. */
  batchSize: number;
  /** Where `retention_deleted_rows_total{table}` is registered. */
  registry?: Registry;
}): BackgroundLoop<RetentionRoundResult> | undefined {
  const rules = paymentsRetentionRules(deps.keep);
  if (deps.intervalMs <= 0 || rules.length === 0) return undefined;
  const deleted = new Counter({
    name: 'retention_deleted_rows_total',
    help: 'Rows the retention job deleted past their retention, by table',
    labelNames: ['table'],
    registers: deps.registry ? [deps.registry] : [],
  });
  return backgroundLoop(
    retentionLoop({ ...deps, rules, onDeleted: (table, rows) => deleted.inc({ table }, rows) }),
  );
}
