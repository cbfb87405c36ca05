import { type Kysely, sql } from 'kysely';

// Registered payees (CONTRACT section 19): with the merchant's `registeredPayeesOnly` on, a transfer goes
// only to a payee registered here and usable (its cooling-off passed, or a second merchant person approved
// it). One active registration per merchant and account; a removed one stays as history.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence if not exists payee_id_seq`.execute(db);
  await db.schema
    .createTable('payees')
    .ifNotExists()
    .addColumn('payee_id', 'text', (c) => c.primaryKey())
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('payee_type', 'text', (c) => c.notNull())
    .addColumn('payee_account', 'text', (c) => c.notNull())
    .addColumn('payee_name', 'text', (c) => c.notNull())
    .addColumn('payee_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('cooling', 'usable', 'removed')`))
    .addColumn('usable_at', 'timestamptz', (c) => c.notNull())
    // Who registered it: `api` (a signed request) or `user:<id>` (a dashboard person); who approved it.
    .addColumn('registered_by', 'text', (c) => c.notNull())
    .addColumn('approved_by', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('removed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index if not exists payees_active_account_idx
    on payees (mch_no, payee_type, payee_account) where status <> 'removed'`.execute(db);
  await sql`create index if not exists payees_mch_created_idx on payees (mch_no, created_at, payee_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payees').ifExists().execute();
  await sql`drop sequence if exists payee_id_seq`.execute(db);
}
