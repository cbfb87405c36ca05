import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface CashierLink {
  orderNo: string;
  mchNo: string;
  returnUrl: string;
  quitUrl: string;
}

/** Records an order's link; a repeated create-pay of the same order leaves the first row as it is. */
export async function saveCashierLink(db: Kysely<Database>, link: CashierLink): Promise<void> {
  await db
    .insertInto('cashier_links')
    .values({
      order_no: link.orderNo,
      mch_no: link.mchNo,
      return_url: link.returnUrl,
      quit_url: link.quitUrl,
    })
    .onConflict((oc) => oc.column('order_no').doNothing())
    .execute();
}

export async function findCashierLink(
  db: Kysely<Database>,
  orderNo: string,
): Promise<CashierLink | undefined> {
  const row = await db
    .selectFrom('cashier_links')
    .select(['order_no', 'mch_no', 'return_url', 'quit_url'])
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
  return (
    row && { orderNo: row.order_no, mchNo: row.mch_no, returnUrl: row.return_url, quitUrl: row.quit_url }
  );
}

/** The links' store bound to a database: what the cashier's routes are given instead of the database. */
export interface CashierLinks {
  save(link: CashierLink): Promise<void>;
  find(orderNo: string): Promise<CashierLink | undefined>;
}

export function cashierLinks(db: Kysely<Database>): CashierLinks {
  return {
    save: (link) => saveCashierLink(db, link),
    find: (orderNo) => findCashierLink(db, orderNo),
  };
}
