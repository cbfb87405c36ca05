import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Counts one request of a merchant in the current one-second window and answers the window's count
 * so far across every replica. One upsert statement, so concurrent replicas never lose a count.
 */
export async function countRequest(db: Kysely<Database>, mchNo: string): Promise<number> {
  const row = await db
    .insertInto('rate_windows')
    .values({ mch_no: mchNo, window_start: sql<Date>`date_trunc('second', now())`, count: 1 })
    .onConflict((oc) =>
      oc.columns(['mch_no', 'window_start']).doUpdateSet({ count: sql<number>`rate_windows.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** Deletes windows older than a minute; answers how many. */
export async function purgeRateWindows(db: Kysely<Database>): Promise<number> {
  const result = await db
    .deleteFrom('rate_windows')
    .where('window_start', '<', sql<Date>`now() - interval '1 minute'`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
