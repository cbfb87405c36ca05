import { type Kysely, sql } from 'kysely';

// Reconciliation (CONTRACT.md 14; days are yyyy-MM-dd text, Mexico City): the channels' statement lines, the runs, the discrepancies; and the
// journal's platform entries for channel money no order owns (an entry with no merchant, on the route's
// `unmatched:<route>` account), so the books hold every centavo the channel holds.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('statement_lines')
    .addColumn('route_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('deposit', 'payout', 'payout_return')`))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('clave_rastreo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('platform_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('upstream_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sender_account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sender_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('applied', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('statement_lines_pk', ['route_id', 'day', 'reference'])
    .execute();
  // A movement's lines on any day and route: a second deposit to a paid order, a line a day late.
  await sql`create index statement_lines_ref_idx on statement_lines (platform_ref, kind)`.execute(db);

  await db.schema
    .createTable('recon_runs')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn('route_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'succeeded', 'failed')`))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addColumn('lines', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('matched', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('pending', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('discrepancies', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .execute();
  await sql`create index recon_runs_route_day_idx on recon_runs (route_id, day, status)`.execute(db);

  await db.schema
    .createTable('discrepancies')
    .addColumn('id', 'bigint', (c) => c.generatedAlwaysAsIdentity().primaryKey())
    // route:day:kind:reference — a run of the same day finds the same key and adds nothing.
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`kind in ('missing_on_platform', 'missing_on_channel', 'amount_mismatch', 'unmatched_deposit')`,
        ),
    )
    .addColumn('route_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('platform', 'jsonb')
    .addColumn('channel', 'jsonb')
    .addColumn('mch_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('order_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('transfer_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) =>
      c.notNull().defaultTo('open').check(sql`state in ('open', 'resolved')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('resolution_action', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resolution_operator', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resolution_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolution_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('resolution_status', 'text', (c) => c.notNull().defaultTo(''))
    // Return payouts submitted for it (each attempt has its own payout number and entries).
    .addColumn('return_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`create index discrepancies_state_idx on discrepancies (state, kind, route_id, id)`.execute(db);
  // The return loop's work: returns submitted and not yet finished.
  await sql`create index discrepancies_return_pending_idx on discrepancies (id)
    where resolution_action = 'return' and resolution_status = 'pending'`.execute(db);

  // Platform entries (no merchant): channel money no order owns, recognised and returned.
  await sql`alter table entries alter column mch_no drop not null`.execute(db);
  await sql`alter table entries drop constraint entries_type_check`.execute(db);
  await sql`alter table entries add constraint entries_type_check check (type in ('pay_in', 'settle',
    'transfer_freeze', 'transfer_unfreeze', 'transfer_out', 'transfer_return', 'adjust',
    'unmatched_in', 'unmatched_return', 'unmatched_return_reversal'))`.execute(db);
  await sql`alter table entries add constraint entries_merchant_or_platform check ((mch_no is null) = (type in
    ('unmatched_in', 'unmatched_return', 'unmatched_return_reversal')))`.execute(db);
  await sql`alter table accounts drop constraint accounts_kind_check`.execute(db);
  await sql`alter table accounts add constraint accounts_kind_check check (kind in ('available', 'pending', 'frozen',
    'fee_revenue', 'adjustments', 'clearing', 'unmatched'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['discrepancies', 'recon_runs', 'statement_lines']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
