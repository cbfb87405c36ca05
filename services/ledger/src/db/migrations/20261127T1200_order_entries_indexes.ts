import { type Kysely, sql } from 'kysely';

// ListOrderEntries (the operators' timeline): every entry citing one order or transfer, through an index
// whatever the size of the books. Partial: most entries cite one of the two, never both.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists entries_order_no_idx on entries (order_no) where order_no is not null`.execute(
    db,
  );
  await sql`create index if not exists entries_transfer_no_idx on entries (transfer_no)
    where transfer_no is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists entries_transfer_no_idx`.execute(db);
  await sql`drop index if exists entries_order_no_idx`.execute(db);
}
