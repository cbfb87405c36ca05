import { type Kysely, sql } from 'kysely';

// Payout limits (CONTRACT section 19): what a merchant's accepted payouts add up to per Mexico City day
// and month, counted in the transaction that freezes each payout. A hold remembers the day it was counted
// on, so a payout that fails after midnight gives its usage back to the day that counted it; holds from
// before this migration counted nowhere and give nothing back.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('holds').addColumn('usage_day', 'text').execute();
  await db.schema
    .createTable('payout_usage')
    .ifNotExists()
    .addColumn('mch_no', 'text', (c) => c.notNull())
    // yyyy-MM-dd (a day) or yyyy-MM (a month), Mexico City.
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0).check(sql`amount >= 0`))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0).check(sql`count >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('payout_usage_pk', ['mch_no', 'period'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payout_usage').ifExists().execute();
  await db.schema.alterTable('holds').dropColumn('usage_day').execute();
}
