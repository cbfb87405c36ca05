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

/**
 * How long transfers keeps what grows with traffic, in days; 0 keeps it forever (docs/deploy.md "Retention").
 * Only the outbox: transfers and inquiries are the record and are kept, and there is no status history table.
 */
export interface TransfersRetention {
  /** OUTBOX_RETENTION_DAYS: published outbox rows; an unpublished row is never deleted. */
  outboxDays: number;
}

/** The rules the settings turn on. Each is served by an index (migration 20261124T0200_retention_indexes). */
export function transfersRetentionRules(keep: TransfersRetention): RetentionRule[] {
  return keep.outboxDays > 0 ? [publishedOutboxRule(keep.outboxDays * DAY_MS)] : [];
}

/** The retention job: a background loop deleting due rows in batches; undefined when nothing is turned on. */
export function startRetention(deps: {
  db: Kysely<Database>;
  logger: Logger;
  keep: TransfersRetention;
  /** RETENTION_INTERVAL_MS: pause once nothing is due; 0 turns the job off. */
  intervalMs: number;
  /** RETENTION_BATCH: rows per batch. */
  batchSize: number;
  /** Where `retention_deleted_rows_total{table}` is registered. */
  registry?: Registry;
}): BackgroundLoop<RetentionRoundResult> | undefined {
  const rules = transfersRetentionRules(deps.keep);
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
