import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // What the payer's page needs beyond the order itself: whose order it is (payments reads orders per
  // merchant) and where the payer goes back to. Written by create-pay; one row per order.
  await db.schema
    .createTable('cashier_links')
    .addColumn('order_no', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('quit_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cashier_links').ifExists().execute();
}
