import type { Kysely } from 'kysely';
import type { CallbackOutcome } from '../callbacks/callback.client.js';
import type { Database, DeliveryRow } from '../db/schema.js';
import { insertDeliveries, type NewDelivery, type RecordOutcome } from './delivery.repository.js';
import { rescheduleDelivery } from './delivery-admin.repository.js';
import {
  type ClaimedDelivery,
  type ClaimOptions,
  dropLeases,
  leaseDueDeliveries,
} from './delivery-lease.repository.js';
import {
  type NextState,
  newerDelivery,
  recordAttemptResult,
  settleDelivery,
} from './delivery-settle.repository.js';
import { lockOrders } from './order-lock.repository.js';
import { nextRetryDelay } from './retry-schedule.js';

// The deliveries' use cases: each opens the one transaction its repository calls share.

/**
 * Records a batch of events' deliveries in one transaction (see `insertDeliveries`): one per event,
 * superseding the older changes of its order that still wait.
 */
export async function recordDeliveries(
  db: Kysely<Database>,
  deliveries: readonly NewDelivery[],
): Promise<RecordOutcome[]> {
  if (deliveries.length === 0) return [];
  return db.transaction().execute((trx) => insertDeliveries(trx, deliveries));
}

/**
 * Leases up to `slots` due deliveries for one attempt each and records the attempts as in flight.
 * - Claims run one at a time across replicas (a transaction-scoped advisory lock, held for milliseconds),
 *   so the per-endpoint limit counts every replica's leases exactly; `skip locked` still keeps a claim from
 *   waiting on rows that a consumer or an admin resend is changing.
 * - Each endpoint with due deliveries is visited (a skip scan of the endpoint index) and gives at most its
 *   free slots' worth, oldest first, from its own index range: the cost of a claim grows with the number
 *   of endpoints, never with one endpoint's backlog, so a dead endpoint's pile of due callbacks can
 *   neither fill the claim nor slow it down for the others.
 * - A delivery waits while an older version of its order is in flight, so a merchant sees an order's
 *   changes in order; when that attempt fails, the older one is superseded instead.
 * - `room` adds this replica's adaptive limits (`endpoint-limits.ts`): an endpoint takes at most the
 *   lesser of its free slots over all replicas and its free slots here. An endpoint with none left is not
 *   read at all (a `limit 0` probe), so a backlog waiting behind its limit costs the claim nothing; its
 *   callbacks stay due, with no attempt recorded.
 * - An expired lease is fair game: its replica died or hung, and the attempt it left is marked abandoned.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  opts: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  if (opts.slots <= 0) return [];
  return db.transaction().execute((trx) => leaseDueDeliveries(trx, opts));
}

/** Drops this replica's remaining leases (at shutdown), so its deliveries go out without waiting for expiry. */
export async function releaseLeases(db: Kysely<Database>, owner: string): Promise<number> {
  return db.transaction().execute((trx) => dropLeases(trx, owner));
}

/**
 * The admin resend: makes a delivery due now with a fresh retry schedule, from any state but in flight or
 * skipped, and wakes every replica. Returns the updated row, or undefined when nothing changed.
 */
export async function rescheduleNow(db: Kysely<Database>, id: string): Promise<DeliveryRow | undefined> {
  return db.transaction().execute((trx) => rescheduleDelivery(trx, id));
}

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
