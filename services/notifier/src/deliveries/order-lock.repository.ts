import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** The advisory lock key of one order: every decision about the order's supersession holds it. */
export function orderLockKey(order: { kind: string; orderNo: string }): string {
  return `agentpay.notifier.order:${order.kind}:${order.orderNo}`;
}

/**
 * Serialises everything that decides supersession for these orders (recording their events, finishing
 * their attempts), so two of them can never each miss the other's uncommitted row. The locks are taken in
 * one sorted order, so two transactions sharing orders wait for each other instead of deadlocking.
 */
export async function lockOrders(
  trx: Transaction<Database>,
  orders: readonly { kind: string; orderNo: string }[],
): Promise<void> {
  const keys = [...new Set(orders.map(orderLockKey))].sort();
  await sql`select pg_advisory_xact_lock(hashtextextended(k, 0))
            from (select k from unnest(${keys}::text[]) as k order by k) as sorted`.execute(trx);
}
