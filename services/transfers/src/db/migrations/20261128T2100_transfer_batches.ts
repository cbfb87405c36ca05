import { type Kysely, sql } from 'kysely';

// Batch payouts (CONTRACT section 21). A batch is accepted in two steps that a crash may split: its row and
// its items' rows are inserted (`accepting`, the items `submitting`/`pending`), then the ledger freezes every
// item at once and the batch becomes `accepted` with its items `progress`/`queued`. The batch sender takes
// queued items to the router one by one (`queued` -> `sent` -> how the submission ended). An `accepting`
// batch is finished (or withdrawn, when the ledger refuses it) by a repeat of its request or by the sweep.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence if not exists transfer_batch_no_seq`.execute(db);
  await db.schema
    .createTable('transfer_batches')
    .ifNotExists()
    .addColumn('batch_no', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('biz_batch_no', 'text', (c) => c.notNull())
    .addColumn('notify_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('accepting', 'accepted')`))
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull().defaultTo('api'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('transfer_batches_mch_biz_key', ['mch_no', 'biz_batch_no'])
    .execute();
  await sql`create index if not exists transfer_batches_accepting_idx
    on transfer_batches (created_at) where state = 'accepting'`.execute(db);
  await sql`alter table transfers add column if not exists batch_no text`.execute(db);
  await sql`create index if not exists transfers_batch_idx on transfers (batch_no, transfer_no)
    where batch_no is not null`.execute(db);
  await sql`create index if not exists transfers_queued_idx on transfers (transfer_no)
    where submission = 'queued'`.execute(db);
  await sql`alter table transfers drop constraint if exists transfers_submission_check`.execute(db);
  await sql`alter table transfers add constraint transfers_submission_check
    check (submission in ('pending', 'queued', 'sent', 'voiding', 'accepted', 'rejected', 'unknown'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop constraint if exists transfers_submission_check`.execute(db);
  await sql`alter table transfers add constraint transfers_submission_check
    check (submission in ('pending', 'sent', 'voiding', 'accepted', 'rejected', 'unknown'))`.execute(db);
  await sql`drop index if exists transfers_queued_idx`.execute(db);
  await sql`drop index if exists transfers_batch_idx`.execute(db);
  await sql`alter table transfers drop column if exists batch_no`.execute(db);
  await db.schema.dropTable('transfer_batches').ifExists().execute();
  await sql`drop sequence if exists transfer_batch_no_seq`.execute(db);
}
