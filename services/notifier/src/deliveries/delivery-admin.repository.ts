import { type Kysely, sql, type Transaction } from 'kysely';
import { DELIVERIES_CHANNEL } from '../db/channels.js';
import type { AttemptRow, Database, DeliveryRow } from '../db/schema.js';

// What the admin API reads and the resend it makes.

/** Deliveries of an order number (either kind, or one), newest first. */
export async function deliveriesByOrder(
  db: Kysely<Database>,
  filter: {
    orderNo: string;
    kind?: 'pay' | 'transfer' | undefined;
    mchNo?: string | undefined;
    limit: number;
  },
): Promise<DeliveryRow[]> {
  let query = db.selectFrom('deliveries').selectAll().where('order_no', '=', filter.orderNo);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.mchNo) query = query.where('mch_no', '=', filter.mchNo);
  return query.orderBy('created_at', 'desc').orderBy('version', 'desc').limit(filter.limit).execute();
}

/**
 * One merchant's deliveries whose last attempt failed (given up, or pending a retry), newest first, after the
 * keyset `before` (`at` is `cursorAt` of the previous page's last row, to the microsecond). Reads
 * deliveries_failing_idx: the predicate is written exactly as the index's.
 */
export async function failingDeliveries(
  db: Kysely<Database>,
  filter: { mchNo: string; before?: { at: string; id: string } | undefined; limit: number },
): Promise<(DeliveryRow & { cursor_at: string })[]> {
  let query = db
    .selectFrom('deliveries')
    .selectAll()
    .select(
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('cursor_at'),
    )
    .where('mch_no', '=', filter.mchNo)
    .where(sql<boolean>`(status = 'failed' or (status = 'pending' and attempt_count > 0))`);
  const before = filter.before;
  if (before)
    query = query.where(sql<boolean>`(created_at, id) < (${before.at}::timestamptz, ${before.id}::uuid)`);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

export async function deliveryById(db: Kysely<Database>, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The attempts of these deliveries, newest first. */
export async function attemptsOf(db: Kysely<Database>, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('id', 'desc')
    .execute();
}

/**
 * Makes a delivery due now with a fresh retry schedule, from any state but in flight or skipped; wakes
 * every replica once the caller's transaction commits. Returns the updated row, or undefined when nothing
 * changed.
 */
export async function rescheduleDelivery(
  trx: Transaction<Database>,
  id: string,
): Promise<DeliveryRow | undefined> {
  const row = await trx
    .updateTable('deliveries')
    .set({
      status: 'pending',
      next_attempt_at: sql<Date>`now()`,
      round_attempts: 0,
      superseded_by: null,
      delivered_at: null,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('status', '<>', 'skipped')
    .where((eb) =>
      eb.or([
        eb('status', '<>', 'pending'),
        eb('lease_until', 'is', null),
        eb('lease_until', '<=', sql<Date>`now()`),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (row) await sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(trx);
  return row;
}
