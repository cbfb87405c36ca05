import type { ListPage } from '@agentpay/wire';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, PayOrderRow, StatusHistoryRow } from '../db/schema.js';

// The reads behind ListPayOrders and GetPayOrderHistory. Every filter is served by an index of migration
// 20261127T0300_order_search: the search's four keys each by their own (Postgres ORs the bitmaps), the
// page by (mch_no, created_at, order_no) or (created_at, order_no) read backwards, so the work depends on
// the page, not on how many orders the merchant has.

/**
 * A checked list request (readListRequest): `search` is matched exactly against order_no, biz_order_no,
 * clave_rastreo and the CLABE in pay_body; the page continues after `afterOrderNo`, the last order of the
 * previous page, in (created_at, order_no) desc.
 */
export type OrderListQuery = Omit<ListPage, 'after'> & { afterOrderNo: string | undefined };

/**
 * The list's statement (one row more than a page, to tell whether another follows); tests EXPLAIN it. A
 * search is a materialized CTE: its four exact keys find a handful of rows through their own indexes (a
 * BitmapOr), and only then are the merchant, status and time filters applied. Without the fence the planner
 * may instead walk a big merchant's orders newest first through (mch_no, created_at, order_no), filtering
 * each against the keys, which costs what the merchant holds.
 */
export function orderListQuery(query: OrderListQuery): RawBuilder<PayOrderRow> {
  const filters = [sql`opened_at is not null`];
  if (query.mchNo !== undefined) filters.push(sql`mch_no = ${query.mchNo}`);
  if (query.status !== undefined) filters.push(sql`status = ${query.status}`);
  if (query.from !== undefined) filters.push(sql`created_at >= ${query.from}`);
  if (query.to !== undefined) filters.push(sql`created_at < ${query.to}`);
  if (query.afterOrderNo !== undefined) {
    filters.push(
      sql`(created_at, order_no) < (select c.created_at, c.order_no from pay_orders c where c.order_no = ${query.afterOrderNo})`,
    );
  }
  const where = sql.join(filters, sql` and `);
  const page = sql`order by created_at desc, order_no desc limit ${query.limit + 1}`;
  const search = query.search;
  if (search === undefined) return sql<PayOrderRow>`select * from pay_orders where ${where} ${page}`;
  // Each branch repeats its partial index's predicate, so the planner may use that index.
  return sql<PayOrderRow>`with hits as materialized (
      select * from pay_orders
      where order_no = ${search} or biz_order_no = ${search}
        or (clave_rastreo = ${search} and clave_rastreo <> '')
        or (pay_body is not null and (pay_body::jsonb ->> 'clabe') = ${search}))
    select * from hits where ${where} ${page}`;
}

/** One page, newest first, and the order the next page continues after (undefined on the last page). */
export async function listOrders(
  db: Kysely<Database>,
  query: OrderListQuery,
): Promise<{ orders: PayOrderRow[]; lastOrderNo: string | undefined }> {
  const { rows } = await orderListQuery(query).execute(db);
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
