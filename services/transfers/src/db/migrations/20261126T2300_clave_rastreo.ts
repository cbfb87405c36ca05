import { type Kysely, sql } from 'kysely';

// The SPEI tracking key the channel gave a transfer's payout, shown to merchants (docs/merchant-api.md
// "Tracking key"). Empty until the channel assigned one, and for a channel that has none. A constant
// default adds the column without rewriting the table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers add column if not exists clave_rastreo text not null default ''`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop column if exists clave_rastreo`.execute(db);
}
