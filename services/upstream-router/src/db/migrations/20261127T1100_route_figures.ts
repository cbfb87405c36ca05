import { type Kysely, sql } from 'kysely';

// A day's figures per route (RouteFigures, the console's home page) from the router's own records:
// - channel_payouts learns each payout's amount and how it has ended so far (status, finished_at), written
//   as the channel answers the submission, a query or a notice. Rows from before this migration keep amount
//   0 and status progress: their day's figures count them, without centavos, as still in progress.
// - virtual_accounts gets an index on when each was opened that carries what the figures sum, so a day is
//   read from the index alone, however many days the table holds. channel_payouts already has one on
//   sent_at (retention's), which bounds its read to the day.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('channel_payouts')
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('progress').check(sql`status in ('progress', 'success', 'fail', 'returned')`),
    )
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index if not exists virtual_accounts_created_idx on virtual_accounts (created_at)
    include (route_id, status, amount, paid_amount)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists virtual_accounts_created_idx`.execute(db);
  await sql`alter table channel_payouts drop column amount, drop column status, drop column finished_at`.execute(
    db,
  );
}
