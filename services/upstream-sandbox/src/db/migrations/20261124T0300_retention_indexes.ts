import { type Kysely, sql } from 'kysely';

// The retention job (src/retention) deletes the sandbox's finished history oldest first; these indexes
// let each batch find what is due without reading the rest of its table. Deposits are found through
// deposits_statement (created_at, id).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists notices_finished_created_idx on notices (created_at)
    where delivered_at is not null or gave_up_at is not null`.execute(db);
  await sql`create index if not exists payouts_finished_created_idx on payouts (created_at)
    where status <> 'processing'`.execute(db);
  await sql`create index if not exists virtual_accounts_closed_created_idx on virtual_accounts (created_at)
    where status <> 'open'`.execute(db);
  // An account goes only once no deposit points at it any more.
  await sql`create index if not exists deposits_account_idx on deposits (account_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'deposits_account_idx',
    'virtual_accounts_closed_created_idx',
    'payouts_finished_created_idx',
    'notices_finished_created_idx',
  ]) {
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  }
}
