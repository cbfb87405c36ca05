import { type Kysely, sql } from 'kysely';

/**
 * The claim walks the endpoints that have due deliveries and takes the first few of each from this index,
 * instead of sorting every due delivery: a dead endpoint's backlog (every new event for it stays due)
 * would otherwise make each claim, and so every healthy endpoint's callbacks, slower as it grows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index deliveries_endpoint_due_idx on deliveries (endpoint, next_attempt_at, id) where status = 'pending'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists deliveries_endpoint_due_idx`.execute(db);
}
