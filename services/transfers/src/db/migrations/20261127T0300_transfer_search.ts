import { type Kysely, sql } from 'kysely';

// The operators' and merchants' transfer lists (ListTransfers): newest first within one merchant or across
// all, and an exact search by transfer number (the primary key), the merchant's number, the SPEI tracking
// key and the payee's account (CLABE). Each is one index, so a merchant with millions of transfers pages
// and searches as fast as one with ten; the keyset is (created_at, transfer_no) read backwards.
// On a large existing table, build the indexes beforehand with CREATE INDEX CONCURRENTLY under the same
// names: this migration then finds them and builds nothing.
//
// transfer_status_history: every status change from now on, written with the change (transfer.transition.ts),
// for the timeline (GetTransferHistory). Transfers older than it have their changes derived from their
// own times, and the answer says so.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists transfers_mch_created_idx
    on transfers (mch_no, created_at, transfer_no)`.execute(db);
  await sql`create index if not exists transfers_mch_status_created_idx
    on transfers (mch_no, status, created_at, transfer_no)`.execute(db);
  await sql`create index if not exists transfers_created_idx on transfers (created_at, transfer_no)`.execute(
    db,
  );
  await sql`create index if not exists transfers_biz_transfer_no_idx on transfers (biz_transfer_no)`.execute(
    db,
  );
  await sql`create index if not exists transfers_clave_rastreo_idx on transfers (clave_rastreo)
    where clave_rastreo <> ''`.execute(db);
  await sql`create index if not exists transfers_payee_account_idx on transfers (payee_account)`.execute(db);

  await db.schema
    .createTable('transfer_status_history')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('transfer_no', 'text', (c) =>
      c.notNull().references('transfers.transfer_no').onDelete('cascade'),
    )
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('transfer_status_history_transfer_version_key', ['transfer_no', 'version'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transfer_status_history').ifExists().execute();
  for (const name of [
    'transfers_payee_account_idx',
    'transfers_clave_rastreo_idx',
    'transfers_biz_transfer_no_idx',
    'transfers_created_idx',
    'transfers_mch_status_created_idx',
    'transfers_mch_created_idx',
  ]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
}
