import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upstream_notices')
    .addColumn('route_id', 'text', (c) => c.notNull())
    .addColumn('notice_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('payment', 'payout')`))
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deliveries', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('apply_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claimed_until', 'timestamptz')
    .addColumn('applied_at', 'timestamptz')
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('upstream_notices_pk', ['route_id', 'notice_id'])
    .execute();
  await db.schema
    .createIndex('upstream_notices_ref')
    .on('upstream_notices')
    .columns(['kind', 'ref'])
    .execute();

  // The seeded sandbox route names its secrets (databases seeded before they existed).
  await sql`
    update routes
       set credentials_ref = 'SANDBOX_API_KEY',
           config = config || '{"noticeSecretRef": "SANDBOX_NOTICE_SECRET"}'::jsonb,
           updated_at = now()
     where id = 'sandbox-default' and credentials_ref = ''
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upstream_notices').ifExists().execute();
}
