import { type Kysely, sql } from 'kysely';

// The latest fact the ledger has observed about each pay order and transfer, from the status events it
// consumes: what the cross-checks prove the books against, and what reconciliation takes a route's day of
// platform movements from.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('observed_orders')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('pay', 'transfer')`))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('biz_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('route_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('upstream_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    // Kept whatever order the events arrive in: the movement's time for reconciliation.
    .addColumn('succeeded_at', 'timestamptz')
    .addColumn('returned_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('observed_orders_pk', ['kind', 'number'])
    .execute();
  // A route's day of pay-ins, payouts and returns.
  await sql`create index observed_orders_route_success_idx on observed_orders (route_id, succeeded_at)`.execute(
    db,
  );
  await sql`create index observed_orders_route_return_idx on observed_orders (route_id, returned_at)
    where returned_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('observed_orders').ifExists().execute();
}
