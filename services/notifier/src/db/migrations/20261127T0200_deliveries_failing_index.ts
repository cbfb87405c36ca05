import { type Kysely, sql } from 'kysely';

// The merchant dashboard's recent failing callbacks (admin API `GET /admin/deliveries?failing=true&mchNo=`):
// one merchant's deliveries whose last attempt failed, newest first. Partial on exactly the list's predicate,
// so a merchant with millions of delivered callbacks reads only its failing ones, and a delivery leaves the
// index when it succeeds. On a large existing table, build it beforehand with CREATE INDEX CONCURRENTLY under
// the same name: this migration then finds it and builds nothing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists deliveries_failing_idx on deliveries (mch_no, created_at, id)
    where status = 'failed' or (status = 'pending' and attempt_count > 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists deliveries_failing_idx`.execute(db);
}
