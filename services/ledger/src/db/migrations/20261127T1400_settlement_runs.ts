import { type Kysely, sql } from 'kysely';

// The settlement runs (ListSettlementRuns, the console's ledger page): every operator run, and each timer
// round that settled something or failed. The list pages newest first by id (the primary key); the
// retention job deletes old runs oldest first by started_at.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settlement_runs')
    .ifNotExists()
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('trigger', 'text', (c) => c.notNull().check(sql`trigger in ('sweep', 'operator')`))
    .addColumn('until', 'timestamptz', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz', (c) => c.notNull())
    .addColumn('settled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('succeeded', 'failed')`))
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`create index if not exists settlement_runs_started_idx on settlement_runs (started_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('settlement_runs').ifExists().execute();
}
