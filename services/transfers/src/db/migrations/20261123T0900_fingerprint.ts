import { type Kysely, sql } from 'kysely';

// One name for the hash of a request's business parameters, as payments' orders call it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers rename column request_fingerprint to fingerprint`.execute(db);
  await sql`alter table inquiries rename column request_fingerprint to fingerprint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers rename column fingerprint to request_fingerprint`.execute(db);
  await sql`alter table inquiries rename column fingerprint to request_fingerprint`.execute(db);
}
