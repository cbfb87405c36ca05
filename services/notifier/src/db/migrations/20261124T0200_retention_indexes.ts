import { type Kysely, sql } from 'kysely';

// The retention job (src/retention) deletes attempts of finished deliveries oldest first; this index lets
// each batch find what is due without reading the rest of the table. On a large existing table, build it
// beforehand with CREATE INDEX CONCURRENTLY under the same name (docs/deploy.md "Retention"): this
// migration then finds it and builds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists delivery_attempts_started_idx on delivery_attempts (started_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists delivery_attempts_started_idx`.execute(db);
}
