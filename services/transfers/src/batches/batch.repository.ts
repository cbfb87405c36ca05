import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import type {
  Database,
  TransferBatchesTable,
  TransferBatchRow,
  TransferRow,
  TransfersTable,
} from '../db/schema.js';

// Built by the database like transfer numbers: 'B' + UTC yyyyMMddHHmmss + 12-digit sequence (27 characters).
const nextBatchNo = sql<string>`'B' || to_char(clock_timestamp() at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('transfer_batch_no_seq')::text, 12, '0')`;
const nextTransferNo = sql<string>`'T' || to_char(clock_timestamp() at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('transfer_no_seq')::text, 12, '0')`;

export type NewBatch = Omit<Insertable<TransferBatchesTable>, 'batch_no' | 'state'>;
export type NewBatchItem = Omit<
  Insertable<TransfersTable>,
  | 'transfer_no'
  | 'status'
  | 'submission'
  | 'version'
  | 'route_id'
  | 'upstream_ref'
  | 'finish_time'
  | 'checked_at'
  | 'clave_rastreo'
  | 'batch_no'
>;

/** Inserts the batch as `accepting`, or nothing when the merchant has one with this biz_batch_no already. */
export function insertBatch(
  trx: Transaction<Database>,
  batch: NewBatch,
): Promise<TransferBatchRow | undefined> {
  return trx
    .insertInto('transfer_batches')
    .values({ ...batch, batch_no: nextBatchNo, state: 'accepting' })
    .onConflict((oc) => oc.constraint('transfer_batches_mch_biz_key').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Inserts every item as a transfer still `submitting` (invisible to the merchant until the ledger froze
 * the batch), in one statement; numbered in the items' order. Items whose bizTransferNo the merchant has
 * used already are skipped: the caller compares the count and rolls back.
 */
export function insertItems(
  trx: Transaction<Database>,
  batchNo: string,
  items: readonly NewBatchItem[],
): Promise<{ transfer_no: string }[]> {
  return trx
    .insertInto('transfers')
    .values(
      items.map((item) => ({
        ...item,
        batch_no: batchNo,
        transfer_no: nextTransferNo,
        status: 'submitting' as const,
        submission: 'pending' as const,
      })),
    )
    .onConflict((oc) => oc.constraint('transfers_mch_biz_key').doNothing())
    .returning('transfer_no')
    .execute();
}

/** Of `bizTransferNos`, those the merchant has a transfer for already. */
export async function takenBizTransferNos(
  db: Kysely<Database>,
  mchNo: string,
  bizTransferNos: readonly string[],
): Promise<Set<string>> {
  if (bizTransferNos.length === 0) return new Set();
  const rows = await db
    .selectFrom('transfers')
    .select('biz_transfer_no')
    .where('mch_no', '=', mchNo)
    .where('biz_transfer_no', '=', sql<string>`any(${sql.val([...bizTransferNos])}::text[])`)
    .execute();
  return new Set(rows.map((r) => r.biz_transfer_no));
}

export function findBatch(
  db: Kysely<Database>,
  ref: { mchNo: string; batchNo: string; bizBatchNo: string },
): Promise<TransferBatchRow | undefined> {
  let query = db.selectFrom('transfer_batches').selectAll().where('mch_no', '=', ref.mchNo);
  if (ref.batchNo) query = query.where('batch_no', '=', ref.batchNo);
  if (ref.bizBatchNo) query = query.where('biz_batch_no', '=', ref.bizBatchNo);
  return query.executeTakeFirst();
}

/** The items of a batch with what the ledger's freeze needs, in item order. */
export function batchItems(db: Kysely<Database>, batchNo: string): Promise<TransferRow[]> {
  return db
    .selectFrom('transfers')
    .selectAll()
    .where('batch_no', '=', batchNo)
    .orderBy('transfer_no')
    .execute();
}

/**
 * The ledger froze the batch: it becomes `accepted` and its items `progress`, queued for the sender (the
 * caller's transaction holds both). False when another caller accepted or withdrew it first.
 */
export async function markAccepted(trx: Transaction<Database>, batchNo: string): Promise<boolean> {
  const batch = await trx
    .updateTable('transfer_batches')
    .set({ state: 'accepted', updated_at: sql<Date>`now()` })
    .where('batch_no', '=', batchNo)
    .where('state', '=', 'accepting')
    .executeTakeFirst();
  if (batch.numUpdatedRows === 0n) return false;
  await trx
    .updateTable('transfers')
    .set({ status: 'progress', submission: 'queued', updated_at: sql<Date>`now()` })
    .where('batch_no', '=', batchNo)
    .where('status', '=', 'submitting')
    .execute();
  return true;
}

/**
 * The ledger refused the batch (nothing was frozen): the batch and its items go, so the key is free again
 * (the caller's transaction holds both).
 */
export async function withdrawBatch(trx: Transaction<Database>, batchNo: string): Promise<boolean> {
  const gone = await trx
    .deleteFrom('transfer_batches')
    .where('batch_no', '=', batchNo)
    .where('state', '=', 'accepting')
    .executeTakeFirst();
  if (gone.numDeletedRows === 0n) return false;
  await trx
    .deleteFrom('transfers')
    .where('batch_no', '=', batchNo)
    .where('status', '=', 'submitting')
    .execute();
  return true;
}

/** Batches still `accepting` since before `before`: their request died between the insert and the freeze. */
export function staleAcceptingBatches(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<TransferBatchRow[]> {
  return db
    .selectFrom('transfer_batches')
    .selectAll()
    .where('state', '=', 'accepting')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** How many items of the batch are in each status. */
export async function batchCounts(db: Kysely<Database>, batchNo: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('transfers')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('batch_no', '=', batchNo)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** One page of a batch's items, in item order, after `cursor` (a transfer number). */
export function batchItemsPage(
  db: Kysely<Database>,
  batchNo: string,
  cursor: string,
  limit: number,
): Promise<TransferRow[]> {
  let query = db.selectFrom('transfers').selectAll().where('batch_no', '=', batchNo);
  if (cursor) query = query.where('transfer_no', '>', cursor);
  return query.orderBy('transfer_no').limit(limit).execute();
}

/** Up to `limit` queued batch items, oldest first, for the sender. */
export function queuedItems(db: Kysely<Database>, limit: number): Promise<TransferRow[]> {
  return db
    .selectFrom('transfers')
    .selectAll()
    .where('submission', '=', 'queued')
    .where('status', '=', 'progress')
    .orderBy('transfer_no')
    .limit(limit)
    .execute();
}

/** Takes a queued item for sending (queued -> sent); false when another sender took it first. */
export async function claimQueued(db: Kysely<Database>, transferNo: string): Promise<boolean> {
  const result = await db
    .updateTable('transfers')
    .set({ submission: 'sent' })
    .where('transfer_no', '=', transferNo)
    .where('submission', '=', 'queued')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Records how an item's submission ended (`sent` -> accepted | rejected | unknown), or puts it back (`queued`). */
export async function settleSent(
  db: Kysely<Database>,
  transferNo: string,
  to: 'accepted' | 'rejected' | 'unknown' | 'queued',
): Promise<void> {
  await db
    .updateTable('transfers')
    .set({ submission: to })
    .where('transfer_no', '=', transferNo)
    .where('submission', '=', 'sent')
    .execute();
}
