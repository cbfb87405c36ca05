import { publishedOutboxRule, type RetentionRule } from '@agentpay/db';

const DAY_MS = 86_400_000;

/**
 * How long transfers keeps what grows with traffic, in days; 0 keeps it forever (docs/deploy.md "Retention").
 * Only the outbox: transfers, their status history and inquiries are the record and are kept.
 */
export interface TransfersRetention {
  /** OUTBOX_RETENTION_DAYS: published outbox rows; an unpublished row is never deleted. */
  outboxDays: number;
}

/** The rules the settings turn on. Each is served by an index (migration 20261124T0200_retention_indexes). */
export function transfersRetentionRules(keep: TransfersRetention): RetentionRule[] {
  return keep.outboxDays > 0 ? [publishedOutboxRule(keep.outboxDays * DAY_MS)] : [];
}
