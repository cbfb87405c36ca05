import { type Kysely, sql } from 'kysely';

// The console's failing endpoints (admin API `GET /admin/callbacks/failing-endpoints`) count the deliveries
// given up in the last hours by when they were given up. Partial on `failed` alone, so the read walks the
// window's given-up deliveries and nothing of the far more numerous delivered ones, and the claim's writes
// to pending rows never maintain it. On a large existing table, build it beforehand with CREATE INDEX
// CONCURRENTLY under the same name: this migration then finds it and builds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists deliveries_gave_up_idx on deliveries (updated_at)
    where status = 'failed'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists deliveries_gave_up_idx`.execute(db);
}
