import { type Kysely, sql } from 'kysely';

// A channel where the platform's answer decides a deposit (STP) sends a refused one straight back to the
// payer: its statement shows it as `deposit_returned`, counted by a run as returned, never a discrepancy.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('recon_runs')
    .addColumn('returned', 'int8', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`comment on column recon_runs.returned is 'deposit_returned lines: deposits sent back on arrival'`.execute(
    db,
  );
  await sql`alter table statement_lines drop constraint statement_lines_kind_check`.execute(db);
  await sql`alter table statement_lines add constraint statement_lines_kind_check
    check (kind in ('deposit', 'payout', 'payout_return', 'deposit_returned'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from statement_lines where kind = 'deposit_returned'`.execute(db);
  await sql`alter table statement_lines drop constraint statement_lines_kind_check`.execute(db);
  await sql`alter table statement_lines add constraint statement_lines_kind_check
    check (kind in ('deposit', 'payout', 'payout_return'))`.execute(db);
  await db.schema.alterTable('recon_runs').dropColumn('returned').execute();
}
