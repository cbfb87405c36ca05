import { type Kysely, sql } from 'kysely';
import { DELIVERIES_CHANNEL } from '../channels.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // One delivery per event, whatever JetStream redelivers: the unique key is the idempotency.
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('pay', 'transfer')`))
    .addColumn('mch_no', 'text', (c) => c.notNull())
    .addColumn('app_id', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('order_no', 'text', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('from_status', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz')
    .addColumn('notify_url', 'text', (c) => c.notNull())
    // host:port of notify_url: the unit of per-endpoint concurrency.
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('trace_id', 'text', (c) => c.notNull())
    // The signed callback body, byte for byte what every attempt sends.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'succeeded', 'failed', 'superseded', 'skipped')`),
    )
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    // Attempts since the delivery was last (re)scheduled; indexes the retry schedule.
    .addColumn('round_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('lease_until', 'timestamptz')
    .addColumn('lease_owner', 'text')
    .addColumn('claim_token', 'uuid')
    .addColumn('last_http_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('superseded_by', 'uuid', (c) => c.references('deliveries.id'))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // The claim scans only pending rows, by due time; finished rows pile up and must not slow it.
  await sql`create index deliveries_due_idx on deliveries (next_attempt_at, id) where status = 'pending'`.execute(
    db,
  );
  await sql`create index deliveries_order_idx on deliveries (order_no, kind, version)`.execute(db);
  await sql`create index deliveries_leased_idx on deliveries (endpoint) where status = 'pending' and lease_until is not null`.execute(
    db,
  );
  await sql`create index deliveries_created_idx on deliveries (created_at)`.execute(db);

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('delivery_id', 'uuid', (c) => c.notNull().references('deliveries.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('worker', 'text', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('outcome', 'text', (c) =>
      c.notNull().check(sql`outcome in ('in_flight', 'succeeded', 'failed', 'abandoned')`),
    )
    .addColumn('http_status', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('error', 'text')
    .execute();
  await sql`create index delivery_attempts_delivery_idx on delivery_attempts (delivery_id, id)`.execute(db);

  await sql`
    create function deliveries_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(DELIVERIES_CHANNEL)}, '');
      return null;
    end
    $$`.execute(db);
  // Statement level, delivered on commit: one wake-up per recorded event is enough.
  await sql`create trigger deliveries_notify after insert on deliveries for each statement execute function deliveries_notify()`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('delivery_attempts').ifExists().execute();
  await db.schema.dropTable('deliveries').ifExists().execute();
  await sql`drop function if exists deliveries_notify()`.execute(db);
}
