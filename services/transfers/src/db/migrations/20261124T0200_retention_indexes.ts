import { createPublishedOutboxIndex } from '@agentpay/db';
import { type Kysely, sql } from 'kysely';

// The retention job (src/retention) deletes published outbox rows oldest first; this index lets each batch
// find what is due without reading the rest of the table. On a large existing outbox, build it beforehand
// with CREATE INDEX CONCURRENTLY under the same name (docs/deploy.md "Retention"): this migration then
// finds it and builds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await createPublishedOutboxIndex(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists outbox_published_idx`.execute(db);
}
