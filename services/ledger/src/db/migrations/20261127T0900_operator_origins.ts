import { type Kysely, sql } from 'kysely';

// Who made an operator's booking (a manual adjustment, a discrepancy's credit) and the approval (four
// eyes) it carried out, beside the entry rather than in its remark, which the merchant's statement shows.
// A discrepancy's resolution keeps the approval it carried out as well, so a repeat of that approval is
// known for what it is.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('entry_origins')
    .addColumn('entry_key', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('approval_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .alterTable('discrepancies')
    .addColumn('resolution_approval_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table discrepancies drop column resolution_approval_id`.execute(db);
  await db.schema.dropTable('entry_origins').execute();
}
