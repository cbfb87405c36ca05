import { createPublishedOutboxIndex } from '@agentpay/db';
import { type Kysely, sql } from 'kysely';

// The retention job (src/retention) deletes published outbox rows and old notices oldest first; these
// indexes let each batch find what is due without reading the rest of the table. On a large existing
// table, build them beforehand with CREATE INDEX CONCURRENTLY under the same names (docs/deploy.md
// "Retention"): this migration then finds them and builds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await createPublishedOutboxIndex(db);
  await sql`create index if not exists upstream_notices_received_idx on upstream_notices (received_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists upstream_notices_received_idx`.execute(db);
  await sql`drop index if exists outbox_published_idx`.execute(db);
}
