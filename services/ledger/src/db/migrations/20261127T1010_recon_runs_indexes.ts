import { type Kysely, sql } from 'kysely';

// The operators' list of runs (ListReconciliationRuns) pages newest first by id, filtered by day or route:
// these let a page read only its own rows, however many days and routes the table holds.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists recon_runs_day_idx on recon_runs (day, id)`.execute(db);
  await sql`create index if not exists recon_runs_route_idx on recon_runs (route_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists recon_runs_route_idx`.execute(db);
  await sql`drop index if exists recon_runs_day_idx`.execute(db);
}
