import { type Kysely, sql } from 'kysely';

/**
 * `deliveries_due_idx` (next_attempt_at, id) where pending: the planner took it for the claim's per-endpoint
 * read, filtering on the endpoint row by row, whenever its statistics made the endpoints look alike. Every
 * healthy endpoint's read then walked every due callback of every other endpoint (and the dead entries of
 * the delivered ones): in the callback backlog bench, with a third of the endpoints hanging, claims slowed
 * as their due callbacks piled up and the healthy merchants' p99 went from 41 ms to 21.8 s
 * (docs/benchmarks.md "Callback backlog"). Every read of due deliveries now goes through
 * `deliveries_endpoint_due_idx`, endpoint first, including the wait until the next one falls due; one index
 * less also makes every insert and status change cheaper.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists deliveries_due_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists deliveries_due_idx on deliveries (next_attempt_at, id) where status = 'pending'`.execute(
    db,
  );
}
