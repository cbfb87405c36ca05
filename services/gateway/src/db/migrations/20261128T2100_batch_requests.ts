import { type Kysely, sql } from 'kysely';

// Batch payouts from the dashboard (CONTRACT section 21): a CSV checked row by row is requested by one
// merchant person and waits here until a second person of the same merchant approves it with a current code
// of their authenticator; only then is the batch created in transfers (`batch_no`). State changes are
// conditional updates, so two approvers at once have one winner; the check keeps the requester out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batch_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull().references('merchants.mch_no'))
    .addColumn('biz_batch_no', 'text', (c) => c.notNull())
    .addColumn('notify_url', 'text', (c) => c.notNull().defaultTo(''))
    // The checked items, amounts in centavos, in the file's order.
    .addColumn('items', 'jsonb', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`state in ('pending', 'approved', 'rejected', 'cancelled')`),
    )
    .addColumn('requested_by_id', 'text', (c) => c.notNull())
    .addColumn('requested_by_label', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_by_id', 'text')
    .addColumn('decided_by_label', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('batch_no', 'text')
    .addUniqueConstraint('batch_requests_mch_biz_key', ['mch_no', 'biz_batch_no'])
    .addCheckConstraint(
      'batch_requests_second_person',
      sql`state <> 'approved' or decided_by_id <> requested_by_id`,
    )
    .execute();
  await sql`create index batch_requests_mch_requested_idx on batch_requests (mch_no, requested_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('batch_requests').execute();
}
