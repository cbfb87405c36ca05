import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence transfer_no_seq`.execute(db);
  await sql`create sequence inqury_no_seq`.execute(db);

  await db.schema
    .createTable('transfers')
    .addColumn('transfer_no', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('biz_transfer_no', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('fee', 'bigint', (c) => c.notNull().check(sql`fee >= 0`))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee_type', 'text', (c) => c.notNull())
    .addColumn('payee_account', 'text', (c) => c.notNull())
    .addColumn('payee_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('extra_param', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('attach', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('notify_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('client_ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('submitting', 'progress', 'success', 'fail', 'close')`),
    )
    .addColumn('submission', 'text', (c) =>
      c.notNull().check(sql`submission in ('pending', 'accepted', 'rejected', 'unknown')`),
    )
    .addColumn('route_id', 'text')
    .addColumn('upstream_ref', 'text')
    .addColumn('request_fingerprint', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('finish_time', 'timestamptz')
    .addColumn('checked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('transfers_mch_biz_key', ['mch_no', 'biz_transfer_no'])
    .execute();
  // The sweep looks for submissions left behind by a crash; there are none or a handful.
  await sql`create index transfers_submitting_idx on transfers (created_at) where status = 'submitting'`.execute(
    db,
  );

  // Reconciliation asks upstream about transfers long in progress.
  await sql`create index transfers_progress_idx on transfers (updated_at) where status = 'progress'`.execute(
    db,
  );

  await db.schema
    .createTable('inquiries')
    .addColumn('inqury_no', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('biz_inqury_no', 'text', (c) => c.notNull())
    .addColumn('payee_type', 'text', (c) => c.notNull())
    .addColumn('payee_account', 'text', (c) => c.notNull())
    .addColumn('payee_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('payee_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('extra_param', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('attach', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('valid', 'invalid', 'unknown')`))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('local', 'upstream')`))
    .addColumn('request_fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('inquiries_mch_biz_key', ['mch_no', 'biz_inqury_no'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('inquiries').ifExists().execute();
  await db.schema.dropTable('transfers').ifExists().execute();
  await sql`drop sequence if exists inqury_no_seq`.execute(db);
  await sql`drop sequence if exists transfer_no_seq`.execute(db);
}
