import type { RetentionRule } from '@agentpay/db';
import { sql } from 'kysely';
import type { DeliveryStatus } from '../db/schema.js';

const DAY_MS = 86_400_000;

/**
 * Deliveries that are over: delivered, given up, superseded by a newer version, or skipped. Listed rather
 * than "not pending", so a status added later is kept until someone decides it is finished. The partial
 * index of migration 20261124T0400_deliveries_finished_index is on exactly this list: change both together.
 */
export const FINISHED_DELIVERY_STATUSES = [
  'succeeded',
  'failed',
  'superseded',
  'skipped',
] as const satisfies readonly DeliveryStatus[];

const FINISHED = sql.join(FINISHED_DELIVERY_STATUSES.map((s) => sql.lit(s)));

/** How long the notifier keeps what grows with traffic, in days; 0 keeps it forever (docs/deploy.md "Retention"). */
export interface NotifierRetention {
  /** CALLBACK_ATTEMPT_RETENTION_DAYS: attempts of finished deliveries, by when they started. */
  attemptDays: number;
  /**
   * CALLBACK_DELIVERY_RETENTION_DAYS: finished deliveries (with whatever attempts they still have), by when
   * they last changed. The config holds it at 0 or at least `attemptDays`.
   */
  deliveryDays: number;
}

/**
 * The rules the settings turn on, each served by an index (delivery_attempts_started_idx of migration
 * 20261124T0200_retention_indexes; deliveries_finished_idx of 20261124T0400_deliveries_finished_index).
 *
 * `delivery_attempts`: an attempt goes only while its delivery is finished. The batch locks the delivery
 * row FOR SHARE, so an admin resend (which makes it pending again) waits for the batch to commit; a
 * delivery some writer holds right now is skipped until a later round rather than waited on. A pending
 * delivery's attempts are never deleted, however old.
 *
 * `deliveries`: a finished delivery goes once its `updated_at` (set by every change of state, so for a
 * finished row the time it finished, or the last resend's) is older than the retention, with its attempts
 * (ON DELETE CASCADE). A pending delivery is never deleted. The batch locks the rows it deletes FOR UPDATE
 * SKIP LOCKED: a resend holding the row makes the batch skip it, and one that commits first has made it
 * pending, which the locking re-check sees; a resend that comes after the batch finds no row (404).
 * A delivery that another one points at through `superseded_by` (a superseded older version of its order)
 * is skipped while that row exists: the older one goes first, this one in a later round (a chain drains
 * from its oldest version). Found through deliveries_superseded_by_idx.
 */
export function notifierRetentionRules(keep: NotifierRetention): RetentionRule[] {
  const rules: RetentionRule[] = [];
  if (keep.attemptDays > 0)
    rules.push({
      name: 'delivery_attempts',
      table: 'delivery_attempts',
      timeColumn: 'started_at',
      keepMs: keep.attemptDays * DAY_MS,
      where: sql`exists (
        select 1 from deliveries d
        where d.id = t.delivery_id and d.status in (${FINISHED})
        for share of d skip locked)`,
    });
  if (keep.deliveryDays > 0)
    rules.push({
      name: 'deliveries',
      table: 'deliveries',
      timeColumn: 'updated_at',
      keepMs: keep.deliveryDays * DAY_MS,
      where: sql`t.status in (${FINISHED})
        and not exists (select 1 from deliveries r where r.superseded_by = t.id)`,
    });
  return rules;
}
