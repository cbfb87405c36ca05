import type { RetentionRule } from '@agentpay/db';
import { sql } from 'kysely';
import type { DeliveryStatus } from '../db/schema.js';

const DAY_MS = 86_400_000;

/**
 * Deliveries that are over: delivered, given up, superseded by a newer version, or skipped. Listed rather
 * than "not pending", so a status added later is kept until someone decides it is finished.
 */
const FINISHED = [
  'succeeded',
  'failed',
  'superseded',
  'skipped',
] as const satisfies readonly DeliveryStatus[];

/** How long the notifier keeps what grows with traffic, in days; 0 keeps it forever (docs/deploy.md "Retention"). */
export interface NotifierRetention {
  /** CALLBACK_ATTEMPT_RETENTION_DAYS: attempts of finished deliveries, by when they started. */
  attemptDays: number;
}

/**
 * The rules the settings turn on, each served by an index (migration 20261124T0200_retention_indexes).
 * An attempt goes only while its delivery is finished: the batch locks the delivery row FOR SHARE, so an
 * admin resend (which makes it pending again) waits for the batch to commit; a delivery some writer holds
 * right now is skipped until a later round rather than waited on. A pending delivery's attempts are never
 * deleted, however old. The deliveries themselves are kept.
 */
export function notifierRetentionRules(keep: NotifierRetention): RetentionRule[] {
  if (!(keep.attemptDays > 0)) return [];
  return [
    {
      name: 'delivery_attempts',
      table: 'delivery_attempts',
      timeColumn: 'started_at',
      keepMs: keep.attemptDays * DAY_MS,
      where: sql`exists (
        select 1 from deliveries d
        where d.id = t.delivery_id and d.status in (${sql.join(FINISHED.map((s) => sql.lit(s)))})
        for share of d skip locked)`,
    },
  ];
}
