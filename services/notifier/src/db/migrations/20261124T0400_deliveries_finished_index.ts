import { type Kysely, sql } from 'kysely';

// The retention job (src/retention, rule `deliveries`) deletes finished deliveries oldest first by
// `updated_at` (when they finished). Partial on the finished statuses, written exactly as the rule's
// predicate, so each batch reads what is due and nothing else, and the claim's writes to pending rows do not
// maintain it. On a large existing table, build it beforehand with CREATE INDEX CONCURRENTLY under the same
// name (docs/deploy.md "Retention"): this migration then finds it and builds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists deliveries_finished_idx on deliveries (updated_at)
    where status in ('succeeded', 'failed', 'superseded', 'skipped')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists deliveries_finished_idx`.execute(db);
}
