import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('routes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('adapter', 'text', (c) => c.notNull())
    .addColumn('config', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('credentials_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('methods', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('payee_types', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(100).check(sql`weight >= 0`))
    .addColumn('merchant_scope', 'text', (c) =>
      c.notNull().defaultTo('all').check(sql`merchant_scope in ('all', 'list')`),
    )
    .addColumn('code_map', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('route_merchants')
    .addColumn('route_id', 'text', (c) => c.notNull().references('routes.id').onDelete('cascade'))
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('route_merchants_pk', ['route_id', 'mch_no'])
    .execute();
  await db.schema
    .createTable('router_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['router_meta', 'route_merchants', 'routes'])
    await db.schema.dropTable(table).ifExists().execute();
}
