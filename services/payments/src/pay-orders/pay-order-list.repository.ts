import type { ListPage } from '@agentpay/wire';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, PayOrderRow, StatusHistoryRow } from '../db/schema.js';
import { PAY_STATUSES } from './pay-order.state-machine.js';

// The reads behind ListPayOrders and GetPayOrderHistory, each served by an index so that the work depends on
// the page, not on how many orders the merchant has, on as few indexes as serve them: every index on
// pay_orders costs every create-pay an entry (migration 20261128T1700_order_search_opened says which).
// Pages run newest first by order number, which begins with the creation second in UTC (the column's
// default, `'P' || to_char(now() …) || pay_order_no_seq`), so the all-merchants list reads the primary key
// backwards and a time range is also a range of numbers. One merchant's orders are read from
// (mch_no, status, order_no): a status filter is one range of it, the unfiltered list a merge of the seven.

/**
 * A checked list request (readListRequest): `search` is matched exactly against order_no, biz_order_no,
 * clave_rastreo and the CLABE in pay_body; the page continues after `afterOrderNo`, the last order of the
 * previous page, in order_no desc.
 */
export type OrderListQuery = Omit<ListPage, 'after'> & { afterOrderNo: string | undefined };

/** The smallest order number an order created at `at` or later can have: P and the UTC second. */
export function orderNoFloor(at: Date): string {
  return `P${at.toISOString().slice(0, 19).replace(/[-T:]/g, '')}`;
}

/**
 * The list's statement (one row more than a page, to tell whether another follows); tests EXPLAIN it. A
 * search is a materialized CTE: its four exact keys find a handful of rows through their own indexes (a
 * BitmapOr), and only then are the merchant, status and time filters applied. Without the fence the planner
 * may instead walk a big merchant's orders newest first, filtering each against the keys, which costs what
 * the merchant holds.
 */
export function orderListQuery(query: OrderListQuery): RawBuilder<PayOrderRow> {
  const filters = [sql`opened_at is not null`];
  if (query.mchNo !== undefined) filters.push(sql`mch_no = ${query.mchNo}`);
  // The exact bound on created_at, and the range of numbers it implies, which the indexes can read.
  if (query.from !== undefined)
    filters.push(sql`created_at >= ${query.from}`, sql`order_no >= ${orderNoFloor(query.from)}`);
  if (query.to !== undefined)
    filters.push(
      sql`created_at < ${query.to}`,
      sql`order_no < ${orderNoFloor(new Date(Math.floor(query.to.getTime() / 1000) * 1000 + 1000))}`,
    );
  if (query.afterOrderNo !== undefined) filters.push(sql`order_no < ${query.afterOrderNo}`);
  const page = sql`order by order_no desc limit ${query.limit + 1}`;
  const search = query.search;
  if (search !== undefined) {
    const where = sql.join(
      query.status === undefined ? filters : [...filters, sql`status = ${query.status}`],
      sql` and `,
    );
    // Each branch repeats its partial index's predicate, so the planner may use that index.
    return sql<PayOrderRow>`with hits as materialized (
        select * from pay_orders
        where order_no = ${search} or (biz_order_no = ${search} and opened_at is not null)
          or (clave_rastreo = ${search} and clave_rastreo <> '')
          or (pay_body is not null and (pay_body::jsonb ->> 'clabe') = ${search}))
      select * from hits where ${where} ${page}`;
  }
  if (query.mchNo === undefined || query.status !== undefined) {
    const where = sql.join(
      query.status === undefined ? filters : [...filters, sql`status = ${query.status}`],
      sql` and `,
    );
    return sql<PayOrderRow>`select * from pay_orders where ${where} ${page}`;
  }
  // One merchant, any status: each status's range of (mch_no, status, order_no) read backwards, merged.
  const where = sql.join(filters, sql` and `);
  const ranges = PAY_STATUSES.map(
    (status) => sql`(select * from pay_orders where ${where} and status = ${status} ${page})`,
  );
  return sql<PayOrderRow>`select * from (${sql.join(ranges, sql` union all `)}) o ${page}`;
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
