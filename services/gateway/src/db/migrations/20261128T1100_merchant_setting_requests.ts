import { type Kysely, sql } from 'kysely';

// A merchant's own second person (CONTRACT section 19): turning registered-payees-only off waits here until
// another owner or admin of the same merchant approves it (controls/settings.repository.ts). At most one
// request of a merchant is pending; the state changes are conditional updates, so two approvers at once
// have one winner, and the check keeps the requester from approving their own.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchant_setting_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull().references('merchants.mch_no'))
    .addColumn('change', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('pending').check(sql`state in ('pending', 'approved', 'cancelled')`),
    )
    .addColumn('requested_by_id', 'text', (c) => c.notNull())
    .addColumn('requested_by_label', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_by_id', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addCheckConstraint(
      'merchant_setting_requests_second_person',
      sql`state <> 'approved' or decided_by_id <> requested_by_id`,
    )
    .execute();
  await db.schema
    .createIndex('merchant_setting_requests_one_pending')
    .on('merchant_setting_requests')
    .column('mch_no')
    .unique()
    .where(sql.ref('state'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merchant_setting_requests').execute();
}
