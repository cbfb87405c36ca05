import { type Kysely, sql } from 'kysely';

// The order lists and search on fewer, partial indexes, so that a create-pay writes fewer index entries
// (docs/benchmarks.md "Growth": the six indexes of 20261127T0300_order_search cost create-pay about a fifth
// of its throughput on ten million orders). Every index a create-pay touches is written twice, once by the
// insert and once by the opening update (which cannot be HOT: it changes opened_at); an index partial on
// `opened_at is not null` only by the opening. The lists order by order_no, which begins with the creation
// second (the column's default), so:
// - the all-merchants list is read backwards from the primary key (pay_orders_created_idx goes);
// - one merchant's list, with a status or without, from (mch_no, status, order_no): a status filter is one
//   range of it, the unfiltered list a merge of its seven status ranges (pay-order-list.repository.ts), so
//   (mch_no, created_at, order_no) and (mch_no, status, created_at, order_no) go;
// - the merchant's number across merchants from a partial (biz_order_no) index;
// - claveRastreo and the CLABE keep their indexes, already written only once an order is paid or opened.
// A create-pay now writes 3 index entries on insert and 6 on opening, where it wrote 7 and 8.
// On a large existing table, build the new ones beforehand with CREATE INDEX CONCURRENTLY under the same
// names (this migration then finds them and builds nothing) and drop the old ones with DROP INDEX
// CONCURRENTLY once the new code serves every replica.
const OLD = [
  ['pay_orders_mch_created_idx', 'on pay_orders (mch_no, created_at, order_no)'],
  ['pay_orders_mch_status_created_idx', 'on pay_orders (mch_no, status, created_at, order_no)'],
  ['pay_orders_created_idx', 'on pay_orders (created_at, order_no)'],
  ['pay_orders_biz_order_no_idx', 'on pay_orders (biz_order_no)'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists pay_orders_mch_status_opened_idx
    on pay_orders (mch_no, status, order_no) where opened_at is not null`.execute(db);
  await sql`create index if not exists pay_orders_biz_order_no_opened_idx
    on pay_orders (biz_order_no) where opened_at is not null`.execute(db);
  for (const [name] of OLD) await sql`drop index if exists ${sql.id(name)}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, definition] of OLD)
    await sql`create index if not exists ${sql.id(name)} ${sql.raw(definition)}`.execute(db);
  await sql`drop index if exists pay_orders_biz_order_no_opened_idx`.execute(db);
  await sql`drop index if exists pay_orders_mch_status_opened_idx`.execute(db);
}
