import { type Kysely, sql } from 'kysely';

// Who paid an order, from its paying deposit (CONTRACT section 21: a refund goes back to that account), and
// the channel's CEP page of the deposit. Empty until paid, and when the channel did not say. Constant defaults
// add the columns without rewriting the table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pay_orders
    add column if not exists payer_account text not null default '',
    add column if not exists payer_name text not null default '',
    add column if not exists payer_bank text not null default '',
    add column if not exists payer_rfc text not null default '',
    add column if not exists cep_url text not null default ''`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pay_orders drop column if exists payer_account, drop column if exists payer_name,
    drop column if exists payer_bank, drop column if exists payer_rfc, drop column if exists cep_url`.execute(
    db,
  );
}
