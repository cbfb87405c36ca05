import { type Kysely, sql } from 'kysely';

// The SPEI tracking key of the deposit that paid an order, shown to merchants (docs/merchant-api.md
// "Tracking key"). Empty until paid, and for a channel that has none. A constant default adds the column
// without rewriting the table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pay_orders add column if not exists clave_rastreo text not null default ''`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table pay_orders drop column if exists clave_rastreo`.execute(db);
}
