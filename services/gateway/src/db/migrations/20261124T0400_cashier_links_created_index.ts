import { type Kysely, sql } from 'kysely';

// The retention job (src/retention, rule `cashier_links`) deletes links oldest first by `created_at`; the
// primary key is the order number, so without this index every batch would read the whole table. On a large
// existing table, build it beforehand with CREATE INDEX CONCURRENTLY under the same name (docs/deploy.md
// "Retention"): this migration then finds it and builds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists cashier_links_created_idx on cashier_links (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists cashier_links_created_idx`.execute(db);
}
