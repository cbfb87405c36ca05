import { createPublishedOutboxIndex } from '@agentpay/db';
import { type Kysely, sql } from 'kysely';

// The retention job (src/retention) deletes published outbox rows and old statement lines oldest first;
// these indexes let each batch find what is due without reading the rest of the table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await createPublishedOutboxIndex(db);
  await sql`create index if not exists statement_lines_occurred_idx on statement_lines (occurred_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists statement_lines_occurred_idx`.execute(db);
  await sql`drop index if exists outbox_published_idx`.execute(db);
}
