import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { clearingAccount, unmatchedAccount } from '../ledger/accounts.js';
import type { PlatformEntryType } from '../ledger/booking.js';
import { lockAccounts } from '../ledger/ledger.repository.js';

/**
 * Entries of channel money no order owns. No merchant part moves, so they carry no merchant (mch_no
 * null, changes and balances 0) and never show in a merchant's records:
 * - `unmatched_in`: reconciliation found money on the channel nobody booked: clearing −, unmatched +
 *   (like a pay-in, the channel holds it; unlike one, it is owed to no merchant yet).
 * - `unmatched_return`: a return payout sent it back to the payer: unmatched −, clearing +.
 * - `unmatched_return_reversal`: that payout failed, the money is on the channel again: the reverse.
 * A credit to a merchant is a merchant entry (`credit` in booking.ts): unmatched −, available +.
 */

const DIRECTION: Record<PlatformEntryType, number> = {
  unmatched_in: 1,
  unmatched_return: -1,
  unmatched_return_reversal: 1,
};

/**
 * Books one platform entry in the caller's transaction, idempotently by `key`; answers whether it was
 * booked now. Locks its two accounts in id order like every booking, so balances stay a running sum.
 */
export async function bookPlatformEntry(
  trx: Transaction<Database>,
  entry: {
    key: string;
    type: PlatformEntryType;
    routeId: string;
    amount: number;
    remark: string;
    orderNo?: string;
  },
): Promise<boolean> {
  const unmatched = unmatchedAccount(entry.routeId);
  const clearing = clearingAccount(entry.routeId);
  const balances = await lockAccounts(trx, [clearing, unmatched].sort());
  const existing = await trx
    .selectFrom('entries')
    .select('id')
    .where('key', '=', entry.key)
    .executeTakeFirst();
  if (existing) return false;
  const toUnmatched = DIRECTION[entry.type] * entry.amount;
  const movements = [
    { account: unmatched, amount: toUnmatched },
    { account: clearing, amount: -toUnmatched },
  ].map((mv) => ({ ...mv, after: (balances.get(mv.account) ?? 0) + mv.amount }));
  const inserted = await trx
    .insertInto('entries')
    .values({
      key: entry.key,
      type: entry.type,
      mch_no: null,
      order_no: entry.orderNo || null,
      biz_order_no: null,
      transfer_no: null,
      biz_transfer_no: null,
      amount: entry.amount,
      fee: 0,
      remark: entry.remark,
      available_change: 0,
      pending_change: 0,
      frozen_change: 0,
      available_after: 0,
      pending_after: 0,
      frozen_after: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('postings')
    .values(
      movements.map((mv) => ({
        entry_id: inserted.id,
        account: mv.account,
        amount: mv.amount,
        balance_after: mv.after,
      })),
    )
    .execute();
  for (const mv of movements) {
    await trx
      .updateTable('accounts')
      .set({ balance: mv.after, postings: sql`postings + 1` })
      .where('id', '=', mv.account)
      .execute();
  }
  return true;
}
