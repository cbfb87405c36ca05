import { type Kysely, sql } from 'kysely';

// The operators' and merchants' order lists (ListPayOrders): newest first within one merchant or across
// all, and an exact search by order number (the primary key), the merchant's number, the SPEI tracking
// key and the CLABE. Each is one index, so a merchant with millions of orders pages and searches as fast
// as one with ten. The keyset is (created_at, order_no) read backwards. The CLABE lives in pay_body
// (JSON text); the index is on the same expression the query spells (pay-order-list.repository.ts).
// On a large existing table, build them beforehand with CREATE INDEX CONCURRENTLY under the same names:
// this migration then finds them and builds nothing.
export const PAY_BODY_CLABE = "(pay_body::jsonb ->> 'clabe')";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists pay_orders_mch_created_idx
    on pay_orders (mch_no, created_at, order_no)`.execute(db);
  await sql`create index if not exists pay_orders_mch_status_created_idx
    on pay_orders (mch_no, status, created_at, order_no)`.execute(db);
  await sql`create index if not exists pay_orders_created_idx on pay_orders (created_at, order_no)`.execute(
    db,
  );
  await sql`create index if not exists pay_orders_biz_order_no_idx on pay_orders (biz_order_no)`.execute(db);
  await sql`create index if not exists pay_orders_clave_rastreo_idx on pay_orders (clave_rastreo)
    where clave_rastreo <> ''`.execute(db);
  await sql`create index if not exists pay_orders_clabe_idx on pay_orders (${sql.raw(PAY_BODY_CLABE)})
    where pay_body is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'pay_orders_clabe_idx',
    'pay_orders_clave_rastreo_idx',
    'pay_orders_biz_order_no_idx',
    'pay_orders_created_idx',
    'pay_orders_mch_status_created_idx',
    'pay_orders_mch_created_idx',
  ]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
}
