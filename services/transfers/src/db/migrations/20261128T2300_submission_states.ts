import { type Kysely, sql } from 'kysely';

// Both new submission states together: `queued` (a batch item waiting for the batch sender,
// 20261128T2100_transfer_batches) and `held` (waiting for a compliance person, 20261128T2200_held_submissions).
// Each of those migrations rewrote the check with its own state alone; this one allows both.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop constraint if exists transfers_submission_check`.execute(db);
  await sql`alter table transfers add constraint transfers_submission_check
    check (submission in ('pending', 'queued', 'sent', 'voiding', 'accepted', 'rejected', 'unknown', 'held'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop constraint if exists transfers_submission_check`.execute(db);
  await sql`alter table transfers add constraint transfers_submission_check
    check (submission in ('pending', 'queued', 'sent', 'voiding', 'accepted', 'rejected', 'unknown'))`.execute(
    db,
  );
}
