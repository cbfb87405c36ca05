import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database, TransferRow } from '../db/schema.js';
import type { NewTransfer } from '../transfers/transfer.repository.js';

// Built by the database as transfer numbers are, with `R` for refund: 1 + 14 + 12 = 27 characters.
const nextRefundNo = sql<string>`'R' || to_char(clock_timestamp() at time zone 'UTC', 'YYYYMMDDHH24MISS') || lpad(nextval('transfer_no_seq')::text, 12, '0')`;

/** A merchant's refund by its merchant number (any status, `submitting` included). */
export function findRefundByBiz(
  db: Kysely<Database>,
  mchNo: string,
  bizRefundNo: string,
): Promise<TransferRow | undefined> {
  return db
    .selectFrom('transfers')
    .selectAll()
    .where('mch_no', '=', mchNo)
    .where('biz_transfer_no', '=', bizRefundNo)
    .where('kind', '=', 'refund')
    .executeTakeFirst();
}

/** A merchant's refund by either identifier (both must match when both are given); never a submitting one. */
export function findMerchantRefund(
  db: Kysely<Database>,
  ref: { mchNo: string; refundNo: string; bizRefundNo: string },
): Promise<TransferRow | undefined> {
  let query = db
    .selectFrom('transfers')
    .selectAll()
    .where('mch_no', '=', ref.mchNo)
    .where('kind', '=', 'refund')
    .where('status', '!=', 'submitting');
  if (ref.refundNo) query = query.where('transfer_no', '=', ref.refundNo);
  if (ref.bizRefundNo) query = query.where('biz_transfer_no', '=', ref.bizRefundNo);
  return query.executeTakeFirst();
}

/**
 * The order's allowance row, locked for this transaction (created on the first refund of the order): what
 * it paid and what its live refunds already take. Two refunds of one order take turns here.
 */
export async function lockAllowance(
  trx: Transaction<Database>,
  order: { orderNo: string; mchNo: string; paid: number },
): Promise<{ paid: number; refunded: number }> {
  await trx
    .insertInto('refund_allowances')
    .values({ order_no: order.orderNo, mch_no: order.mchNo, paid: order.paid })
    .onConflict((oc) => oc.column('order_no').doNothing())
    .execute();
  const row = await trx
    .selectFrom('refund_allowances')
    .select(['paid', 'refunded'])
    .where('order_no', '=', order.orderNo)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { paid: Number(row.paid), refunded: Number(row.refunded) };
}

/** Takes `amount` of the order's allowance (its row locked by lockAllowance; the check forbids passing `paid`). */
export async function reserveAllowance(
  trx: Transaction<Database>,
  orderNo: string,
  amount: number,
): Promise<void> {
  await trx
    .updateTable('refund_allowances')
    .set({ refunded: sql<number>`refunded + ${amount}` })
    .where('order_no', '=', orderNo)
    .execute();
}

/**
 * Inserts the refund as `submitting`, or nothing when the merchant already has one with this bizRefundNo:
 * the unique key elects one submitter among concurrent identical requests.
 */
export function insertRefundSubmitting(
  trx: Transaction<Database>,
  values: NewTransfer,
): Promise<TransferRow | undefined> {
  return trx
    .insertInto('transfers')
    .values({
      ...values,
      kind: 'refund',
      transfer_no: nextRefundNo,
      status: 'submitting',
      submission: 'pending',
    })
    .onConflict((oc) => oc.constraint('transfers_mch_biz_key').doNothing())
    .returningAll()
    .executeTakeFirst();
}
