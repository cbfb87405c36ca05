import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Per-merchant request counters in one-second windows, shared by every gateway replica. UNLOGGED:
  // losing counts in a Postgres crash only relaxes a limit for a second, and it spares the WAL a write
  // on every request.
  await sql`
    create unlogged table rate_windows (
      mch_no text not null,
      window_start timestamptz not null,
      count integer not null,
      primary key (mch_no, window_start)
    )`.execute(db);
  await db.schema.alterTable('merchants').addColumn('rate_limit_per_s', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merchants').dropColumn('rate_limit_per_s').execute();
  await db.schema.dropTable('rate_windows').ifExists().execute();
}
