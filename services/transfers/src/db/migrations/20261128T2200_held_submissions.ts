import { type Kysely, sql } from 'kysely';

// `held` (docs/compliance.md "Held transfers"): a transfer in progress whose payee screening matched; its
// freeze is held and nothing went to the router until a compliance person releases it (-> sent) or rejects
// it (-> rejected, then fail).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop constraint if exists transfers_submission_check`.execute(db);
  await sql`alter table transfers add constraint transfers_submission_check
    check (submission in ('pending', 'sent', 'voiding', 'accepted', 'rejected', 'unknown', 'held'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop constraint if exists transfers_submission_check`.execute(db);
  await sql`alter table transfers add constraint transfers_submission_check
    check (submission in ('pending', 'sent', 'voiding', 'accepted', 'rejected', 'unknown'))`.execute(db);
}
