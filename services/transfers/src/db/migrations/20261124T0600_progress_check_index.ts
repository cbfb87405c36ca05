import { type Kysely, sql } from 'kysely';

/**
 * The reconciliation sweep asks about transfers in progress whose last change and last check are both older
 * than its interval. `transfers_progress_idx` (updated_at) found them by their last change only and filtered
 * the last check row by row, so every round stepped over every transfer in progress that had been checked
 * recently: 2,000 stuck payouts cost 1.7 ms a round, a channel silent for a day would cost 100 times that
 * (docs/benchmarks.md "Growth"). Ordered by the later of the two (greatest() ignores a NULL check), a round
 * reads only what is due. On a large existing table, build it beforehand with CREATE INDEX CONCURRENTLY under
 * the same name: this migration then finds it and builds nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists transfers_progress_check_idx
    on transfers (greatest(updated_at, checked_at)) where status = 'progress'`.execute(db);
  await sql`drop index if exists transfers_progress_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists transfers_progress_idx on transfers (updated_at) where status = 'progress'`.execute(
    db,
  );
  await sql`drop index if exists transfers_progress_check_idx`.execute(db);
}
