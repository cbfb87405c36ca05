import { type Kysely, sql } from 'kysely';

// The retention job (src/retention) deletes past rate windows oldest first. Their primary key leads with the
// merchant, so without this index every batch would read the whole table. Nonces already have
// nonces_expires_at_idx. The table is UNLOGGED and small (a minute of windows), so building it is quick.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists rate_windows_window_start_idx on rate_windows (window_start)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists rate_windows_window_start_idx`.execute(db);
}
