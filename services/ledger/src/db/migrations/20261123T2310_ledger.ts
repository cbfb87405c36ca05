import { type Kysely, sql } from 'kysely';

const MERCHANT_KINDS = sql`('available', 'pending', 'frozen')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .check(sql`kind in ('available', 'pending', 'frozen', 'fee_revenue', 'adjustments', 'clearing')`),
    )
    .addColumn('mch_no', 'text')
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('postings', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The last line of defence: the booking code refuses an overdraft first, this refuses a bug's.
    .addCheckConstraint('accounts_merchant_not_negative', sql`kind not in ${MERCHANT_KINDS} or balance >= 0`)
    .addCheckConstraint('accounts_merchant_owner', sql`(kind in ${MERCHANT_KINDS}) = (mch_no is not null)`)
    .execute();

  await db.schema
    .createTable('entries')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`type in ('pay_in', 'settle', 'transfer_freeze', 'transfer_unfreeze', 'transfer_out', 'transfer_return', 'adjust')`,
        ),
    )
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('order_no', 'text')
    .addColumn('biz_order_no', 'text')
    .addColumn('transfer_no', 'text')
    .addColumn('biz_transfer_no', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('available_change', 'bigint', (c) => c.notNull())
    .addColumn('pending_change', 'bigint', (c) => c.notNull())
    .addColumn('frozen_change', 'bigint', (c) => c.notNull())
    .addColumn('available_after', 'bigint', (c) => c.notNull())
    .addColumn('pending_after', 'bigint', (c) => c.notNull())
    .addColumn('frozen_after', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .execute();
  // The merchant's statement (balanceRecords): a keyset scan of one merchant in time order, no sort.
  await sql`create index entries_statement_idx on entries (mch_no, created_at, id)`.execute(db);

  // No foreign keys: postings are only ever written by the booking statement together with their entry,
  // under their accounts' locks, and a per-row referential check doubled the cost of a hot merchant's
  // batch. check() verifies every posting against its entry and its account instead.
  await db.schema
    .createTable('postings')
    .addColumn('entry_id', 'bigint', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount <> 0`))
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('postings_pk', ['entry_id', 'account'])
    .execute();
  // An account's history in order: its last posting's balance_after is its balance.
  await sql`create index postings_account_idx on postings (account, entry_id)`.execute(db);

  // The journal is append-only: a correction is a new entry, never an edit.
  await sql`
    create function ledger_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'the ledger journal is append-only (% on %)', tg_op, tg_table_name
        using errcode = 'restrict_violation';
    end
    $$`.execute(db);
  for (const table of ['entries', 'postings']) {
    await sql`create trigger ${sql.id(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function ledger_append_only()`.execute(db);
  }

  await db.schema
    .createTable('holds')
    .addColumn('transfer_no', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('biz_transfer_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('fee', 'bigint', (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('frozen', 'released', 'out', 'returned', 'void')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('pay_ins')
    .addColumn('order_no', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('biz_order_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('real_amount', 'bigint', (c) => c.notNull())
    .addColumn('settle_type', 'text', (c) =>
      c.notNull().check(sql`settle_type in ('REALTIME', 'D+1', 'D+2', 'D+3')`),
    )
    .addColumn('pay_time', 'timestamptz', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('settled_at', 'timestamptz')
    .execute();
  // The sweep reads only unsettled pay-ins by due time; settled ones pile up and must not slow it.
  await sql`create index pay_ins_due_idx on pay_ins (due_at) where settled_at is null`.execute(db);

  await db.schema
    .createTable('unmatched_events')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['unmatched_events', 'pay_ins', 'holds', 'postings', 'entries', 'accounts']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await sql`drop function if exists ledger_append_only()`.execute(db);
}
