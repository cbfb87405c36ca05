import { type Kysely, sql } from 'kysely';

// A submitting transfer records how far its create went, so recovery knows whether the router may have
// it: `pending` (not yet sent; its freeze may exist), `sent` (the router was called), `voiding` (nothing
// was or will be created upstream; its freeze is being voided before the row is removed).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop constraint if exists transfers_submission_check`.execute(db);
  await sql`alter table transfers add constraint transfers_submission_check
    check (submission in ('pending', 'sent', 'voiding', 'accepted', 'rejected', 'unknown'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop constraint if exists transfers_submission_check`.execute(db);
  await sql`alter table transfers add constraint transfers_submission_check
    check (submission in ('pending', 'accepted', 'rejected', 'unknown'))`.execute(db);
}
