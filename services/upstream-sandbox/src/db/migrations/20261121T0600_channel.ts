import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The account part of issued CLABEs: a sequence, so no two accounts ever share a CLABE, even after a close.
  await sql`create sequence clabe_account_seq minvalue 1 maxvalue 99999999999 no cycle`.execute(db);

  await db.schema
    .createTable('virtual_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_ref', 'text', (c) => c.notNull().unique())
    .addColumn('clabe', 'text', (c) => c.notNull().unique())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('notice_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('open').check(sql`status in ('open', 'paid', 'closed', 'expired')`),
    )
    .addColumn('paid_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_at', 'timestamptz')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('deposits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('clabe', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.references('virtual_accounts.id'))
    .addColumn('matched', 'boolean', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('notify', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('deposits_unmatched')
    .on('deposits')
    .column('created_at')
    .where(sql.ref('matched'), '=', false)
    .execute();

  await db.schema
    .createTable('payouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payout_ref', 'text', (c) => c.notNull().unique())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('payee_type', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('bank_code', 'text', (c) => c.notNull())
    .addColumn('notice_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('processing', 'succeeded', 'failed', 'returned', 'rejected')`),
    )
    .addColumn('planned_outcome', 'text', (c) =>
      c.notNull().check(sql`planned_outcome in ('succeed', 'fail', 'return', 'none')`),
    )
    .addColumn('reason', 'text')
    .addColumn('settle_at', 'timestamptz')
    .addColumn('return_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('returned_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('payouts_due_settle')
    .on('payouts')
    .column('settle_at')
    .where(sql.ref('status'), '=', 'processing')
    .execute();
  await db.schema
    .createIndex('payouts_due_return')
    .on('payouts')
    .column('return_at')
    .where(sql.ref('status'), '=', 'succeeded')
    .execute();

  await db.schema
    .createTable('notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('gave_up_at', 'timestamptz')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('notices_pending')
    .on('notices')
    .column('next_attempt_at')
    .where(sql<boolean>`delivered_at is null and gave_up_at is null`)
    .execute();
  await db.schema.createIndex('notices_ref').on('notices').column('ref').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['notices', 'payouts', 'deposits', 'virtual_accounts'])
    await db.schema.dropTable(table).ifExists().execute();
  await sql`drop sequence if exists clabe_account_seq`.execute(db);
}
