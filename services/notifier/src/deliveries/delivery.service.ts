import type { Kysely } from 'kysely';
import type { CallbackOutcome } from '../callbacks/callback.client.js';
import type { Database } from '../db/schema.js';
import type { ClaimedDelivery } from './delivery-lease.repository.js';
import {
  type NextState,
  newerDelivery,
  recordAttemptResult,
  settleDelivery,
} from './delivery-settle.repository.js';
import { lockOrders } from './order-lock.repository.js';
import { nextRetryDelay } from './retry-schedule.js';

/** What happened to the delivery after the attempt, for logs and tests. */
export type SettleOutcome = NextState['status'] | 'lease_lost';

/**
 * Records an attempt's result and moves the delivery on: succeeded; or, after a failure, superseded when a
 * newer change of the order exists, failed when the attempt could never succeed or the schedule is used
 * up, else pending until the next retry.
 */
export async function settleAttempt(
  db: Kysely<Database>,
  claimed: ClaimedDelivery,
  outcome: CallbackOutcome,
  retryScheduleMs: readonly number[],
): Promise<SettleOutcome> {
  return db.transaction().execute(async (trx) => {
    await lockOrders(trx, [claimed]);
    await recordAttemptResult(trx, claimed.attemptId, {
      outcome: outcome.ok ? 'succeeded' : 'failed',
      httpStatus: outcome.httpStatus,
      latencyMs: outcome.latencyMs,
      excerpt: outcome.excerpt,
      error: outcome.error,
    });
    let next: NextState;
    if (outcome.ok) {
      next = { status: 'succeeded' };
    } else {
      const newer = await newerDelivery(trx, claimed);
      const delayMs = outcome.permanent ? undefined : nextRetryDelay(retryScheduleMs, claimed.roundAttempts);
      if (newer) next = { status: 'superseded', by: newer };
      else if (delayMs === undefined) next = { status: 'failed' };
      else next = { status: 'pending', delayMs };
    }
    const settled = await settleDelivery(trx, claimed, next, {
      httpStatus: outcome.httpStatus,
      error: outcome.error,
    });
    return settled ? next.status : 'lease_lost';
  });
}
