import { type Kysely, sql } from 'kysely';

// The payer's bank (5-digit Banxico code) and RFC/CURP of a deposit, beside its account and name, so the
// platform learns whom to refund (CONTRACT section 21). Constant defaults add them without a rewrite.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table deposits
    add column if not exists sender_bank text not null default '',
    add column if not exists sender_rfc text not null default ''`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table deposits drop column if exists sender_bank, drop column if exists sender_rfc`.execute(
    db,
  );
}
