import { type Kysely, sql } from 'kysely';

// The console's "I asked for" (GET /admin/approvals?mine=requested) pages one person's requests newest first:
// this lets a page read only that person's rows, however many requests everyone else made.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists approvals_requested_by_idx on approvals (requested_by_id, requested_at desc, id desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists approvals_requested_by_idx`.execute(db);
}
