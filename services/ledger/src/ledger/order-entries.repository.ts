import type { Kysely } from 'kysely';
import type { Database, EntryRow } from '../db/schema.js';

/** Every entry citing the order or the transfer, oldest first (indexes of 20261127T1200_order_entries_indexes). */
export function entriesCiting(
  db: Kysely<Database>,
  ref: { orderNo: string } | { transferNo: string },
): Promise<EntryRow[]> {
  const q = db.selectFrom('entries').selectAll();
  return (
    'orderNo' in ref ? q.where('order_no', '=', ref.orderNo) : q.where('transfer_no', '=', ref.transferNo)
  )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
