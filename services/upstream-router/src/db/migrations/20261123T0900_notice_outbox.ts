import { createOutboxTable } from '@agentpay/messaging';
import { type Kysely, sql } from 'kysely';

// A recorded notice now leaves as a NoticeReceived event through the outbox, written in the transaction
// that records it; payments and transfers apply it. The columns that tracked the router applying it
// itself have no meaning any more.
export async function up(db: Kysely<unknown>): Promise<void> {
  await createOutboxTable(db);
  await db.schema
    .alterTable('upstream_notices')
    .dropColumn('apply_attempts')
    .dropColumn('claimed_until')
    .dropColumn('applied_at')
    .dropColumn('last_error')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('upstream_notices')
    .addColumn('apply_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('applied_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .execute();
  // Notices recorded since were handed on through the outbox: count them as applied.
  await sql`update upstream_notices set applied_at = received_at`.execute(db);
  await db.schema.dropTable('outbox').ifExists().execute();
  await sql`drop function if exists outbox_notify()`.execute(db);
}
