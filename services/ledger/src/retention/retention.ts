import { publishedOutboxRule, type RetentionRule } from '@agentpay/db';

const DAY_MS = 86_400_000;

/**
 * What the ledger lets go, in days; 0 keeps it forever (docs/deploy.md "Retention"). The journal, the
 * observed orders, reconciliation runs and discrepancies are the record and are kept.
 */
export interface LedgerRetention {
  /** OUTBOX_RETENTION_DAYS: published outbox rows; an unpublished row is never deleted. */
  outboxDays: number;
  /**
   * STATEMENT_RETENTION_DAYS: the channels' statement lines a reconciliation run stored. A discrepancy
   * keeps its own copy of its line, so only a re-run of a day that old loses them (it would find the day
   * missing on the channel): keep them longer than you reconcile back.
   */
  statementDays: number;
  /** SETTLEMENT_RUN_RETENTION_DAYS: the settlement runs (settlement_runs), by when each started. */
  settlementRunDays: number;
}

/**
 * The rules the settings turn on, each served by an index (migrations 20261124T0300_retention_indexes and
 * 20261127T1400_settlement_runs).
 */
export function ledgerRetentionRules(keep: LedgerRetention): RetentionRule[] {
  const rules: RetentionRule[] = [];
  if (keep.outboxDays > 0) rules.push(publishedOutboxRule(keep.outboxDays * DAY_MS));
  if (keep.statementDays > 0)
    rules.push({
      name: 'statement_lines',
      table: 'statement_lines',
      timeColumn: 'occurred_at',
      keepMs: keep.statementDays * DAY_MS,
    });
  if (keep.settlementRunDays > 0)
    rules.push({
      name: 'settlement_runs',
      table: 'settlement_runs',
      timeColumn: 'started_at',
      keepMs: keep.settlementRunDays * DAY_MS,
    });
  return rules;
}
