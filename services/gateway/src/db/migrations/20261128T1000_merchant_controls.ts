import { type Kysely, sql } from 'kysely';

// Controls on where money goes (CONTRACT section 19), per merchant: its own limits (a field left out keeps
// the platform default, a null removes that limit), whether it sends only to registered payees, and the
// addresses its signed requests may come from (empty: any).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('limits', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('registered_payees_only', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('allowed_ips', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .dropColumn('limits')
    .dropColumn('registered_payees_only')
    .dropColumn('allowed_ips')
    .execute();
}
