import { publishedOutboxRule, type RetentionRule } from '@agentpay/db';

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
