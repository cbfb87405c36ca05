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
 * the batch), in one statement whose parameters are one array per column (its text never grows with the
 * batch), numbered in the items' order. Items whose bizTransferNo the merchant has used already are
 * skipped: the caller compares the count and rolls back. Answers what the ledger's freeze needs.
 */
export async function insertItems(
  trx: Transaction<Database>,
  batchNo: string,
  items: readonly NewBatchItem[],
): Promise<Pick<TransferRow, 'transfer_no' | 'biz_transfer_no' | 'amount' | 'fee'>[]> {
  const column = <T>(pick: (item: NewBatchItem) => T) => items.map(pick);
  const text = (pick: (item: NewBatchItem) => string | undefined) => column((item) => pick(item) ?? '');
  const { rows } = await sql<Pick<TransferRow, 'transfer_no' | 'biz_transfer_no' | 'amount' | 'fee'>>`
    insert into transfers (transfer_no, batch_no, status, submission, mch_no, app_id, biz_transfer_no, amount,
      fee, title, reason, payee_type, payee_account, payee_name, payee_code, extra_param, attach, notify_url,
      client_ip, fingerprint)
    select ${nextTransferNo}, ${batchNo}, 'submitting', 'pending', u.mch_no, u.app_id, u.biz_transfer_no,
      u.amount, u.fee, u.title, u.reason, u.payee_type, u.payee_account, u.payee_name, u.payee_code,
      u.extra_param, u.attach, u.notify_url, u.client_ip, u.fingerprint
    from unnest(${text((i) => i.mch_no)}::text[], ${text((i) => i.app_id)}::text[],
      ${text((i) => i.biz_transfer_no)}::text[], ${column((i) => i.amount)}::bigint[],
      ${column((i) => i.fee)}::bigint[], ${text((i) => i.title)}::text[], ${text((i) => i.reason)}::text[],
      ${text((i) => i.payee_type)}::text[], ${text((i) => i.payee_account)}::text[],
      ${text((i) => i.payee_name)}::text[], ${text((i) => i.payee_code)}::text[],
      ${text((i) => i.extra_param)}::text[], ${text((i) => i.attach)}::text[],
      ${text((i) => i.notify_url)}::text[], ${text((i) => i.client_ip)}::text[],
      ${text((i) => i.fingerprint)}::text[])
      with ordinality as u(mch_no, app_id, biz_transfer_no, amount, fee, title, reason, payee_type,
        payee_account, payee_name, payee_code, extra_param, attach, notify_url, client_ip, fingerprint, ord)
    order by u.ord
    on conflict on constraint transfers_mch_biz_key do nothing
    returning transfer_no, biz_transfer_no, amount, fee`.execute(trx);
  return rows;
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
  to: 'accepted' | 'rejected' | 'unknown' | 'queued' | 'held',
): Promise<void> {
  await db
    .updateTable('transfers')
    .set({ submission: to })
    .where('transfer_no', '=', transferNo)
    .where('submission', '=', 'sent')
    .execute();
}
