import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('merchants')
    .addColumn('mch_no', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('enabled', 'disabled')`))
    .addColumn('fee_percent_bps', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`fee_percent_bps between 0 and 10000`),
    )
    .addColumn('fee_fixed_centavos', 'bigint', (c) =>
      c.notNull().defaultTo(0).check(sql`fee_fixed_centavos >= 0`),
    )
    .addColumn('settle_type', 'text', (c) => c.notNull().defaultTo('D+1'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('merchant_apps')
    .addColumn('mch_no', 'text', (c) => c.notNull().references('merchants.mch_no').onDelete('cascade'))
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('merchant_apps_pk', ['mch_no', 'app_id'])
    .execute();
  await db.schema
    .createTable('merchant_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('mch_no', 'text', (c) => c.notNull().references('merchants.mch_no').onDelete('cascade'))
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'revoked')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('merchant_keys_mch_no_idx').on('merchant_keys').column('mch_no').execute();
  // The nonce store is shared by every gateway replica: the primary key makes "first use wins" atomic.
  await db.schema
    .createTable('nonces')
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('nonces_pk', ['mch_no', 'nonce'])
    .execute();
  await db.schema.createIndex('nonces_expires_at_idx').on('nonces').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['nonces', 'merchant_keys', 'merchant_apps', 'merchants']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
