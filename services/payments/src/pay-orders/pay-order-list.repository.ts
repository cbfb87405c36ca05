import { type Kysely, sql } from 'kysely';
import type { Database, PayOrderRow, StatusHistoryRow } from '../db/schema.js';

// The reads behind ListPayOrders and GetPayOrderHistory. Every filter is served by an index of migration
// 20261127T0300_order_search: the search's four keys each by their own (Postgres ORs the bitmaps), the
// page by (mch_no, created_at, order_no) or (created_at, order_no) read backwards, so the work depends on
// the page, not on how many orders the merchant has.

export interface OrderListQuery {
  /** Undefined: every merchant. */
  mchNo: string | undefined;
  /** Matched exactly against order_no, biz_order_no, clave_rastreo and the CLABE in pay_body. */
  search: string | undefined;
  status: string | undefined;
  from: Date | undefined;
  to: Date | undefined;
  limit: number;
  /** The last order of the previous page; the page continues after it in (created_at, order_no) desc. */
  afterOrderNo: string | undefined;
}

/** The list's query (one row more than a page, to tell whether another follows); tests EXPLAIN it. */
export function orderListQuery(db: Kysely<Database>, query: OrderListQuery) {
  let q = db.selectFrom('pay_orders').selectAll().where('opened_at', 'is not', null);
  if (query.mchNo !== undefined) q = q.where('mch_no', '=', query.mchNo);
  if (query.status !== undefined) q = q.where('status', '=', query.status);
  if (query.from !== undefined) q = q.where('created_at', '>=', query.from);
  if (query.to !== undefined) q = q.where('created_at', '<', query.to);
  const search = query.search;
  if (search !== undefined) {
    // Each branch repeats its partial index's predicate, so the planner may use that index.
    q = q.where((eb) =>
      eb.or([
        eb('order_no', '=', search),
        eb('biz_order_no', '=', search),
        eb.and([eb('clave_rastreo', '=', search), eb('clave_rastreo', '<>', '')]),
        eb.and([eb('pay_body', 'is not', null), sql<boolean>`(pay_body::jsonb ->> 'clabe') = ${search}`]),
      ]),
    );
  }
  if (query.afterOrderNo !== undefined) {
    q = q.where(
      sql<boolean>`(created_at, order_no) < (select c.created_at, c.order_no from pay_orders c where c.order_no = ${query.afterOrderNo})`,
    );
  }
  return q
    .orderBy('created_at', 'desc')
    .orderBy('order_no', 'desc')
    .limit(query.limit + 1);
}

/** One page, newest first, and the order the next page continues after (undefined on the last page). */
export async function listOrders(
  db: Kysely<Database>,
  query: OrderListQuery,
): Promise<{ orders: PayOrderRow[]; lastOrderNo: string | undefined }> {
  const rows = await orderListQuery(db, query).execute();
  const orders = rows.slice(0, query.limit);
  const last = orders.at(-1);
  return { orders, lastOrderNo: rows.length > query.limit && last ? last.order_no : undefined };
}

/** An order's stored status changes, oldest first (retention may have removed the oldest). */
export async function statusHistoryOf(db: Kysely<Database>, orderNo: string): Promise<StatusHistoryRow[]> {
  return db
    .selectFrom('pay_order_status_history')
    .selectAll()
    .where('order_no', '=', orderNo)
    .orderBy('version')
    .execute();
}
