import { type Kysely, sql } from 'kysely';

// The console's "I asked for" (GET /admin/approvals?mine=requested) pages one person's requests newest first,
// and a discrepancy's page asks what waits on it (?target=): these let each read only its own rows, however
// many requests everyone else made.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists approvals_requested_by_idx on approvals (requested_by_id, requested_at desc, id desc)`.execute(
    db,
  );
  await sql`create index if not exists approvals_target_idx on approvals (target, requested_at desc, id desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists approvals_target_idx`.execute(db);
  await sql`drop index if exists approvals_requested_by_idx`.execute(db);
}
