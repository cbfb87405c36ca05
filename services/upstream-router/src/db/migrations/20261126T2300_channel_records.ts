import { type Kysely, sql } from 'kysely';

// The router's own records of what it handed to channels, so that a channel's webhook is matched to the
// platform's object by the router (by CLABE, by the channel's id), never by a reference the channel echoes:
// - virtual_accounts: every pay order's CLABE on its route, its state as the router knows it and, once
//   ended, the time its quarantine starts (a CLABE the router assigns is not reused inside it);
// - channel_deposits: every deposit a channel offered on a route and what the router answered, once;
// - channel_payouts: every payout sent on a route, with the channel's id and SPEI tracking key.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('virtual_accounts')
    .addColumn('order_no', 'text', (c) => c.primaryKey())
    .addColumn('route_id', 'text', (c) => c.notNull())
    .addColumn('clabe', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('open', 'paid', 'closed')`))
    .addColumn('assigned', 'boolean', (c) => c.notNull())
    .addColumn('upstream_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('paid_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_at', 'timestamptz')
    .addColumn('clave_rastreo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('ended_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // A deposit names a CLABE: its latest account on the route is the one it pays.
  await sql`create index virtual_accounts_clabe_idx on virtual_accounts (route_id, clabe, created_at desc)`.execute(
    db,
  );
  // Two open accounts never share a CLABE on a route, whatever replica allocated them.
  await sql`create unique index virtual_accounts_open_clabe_key on virtual_accounts (route_id, clabe)
    where status = 'open'`.execute(db);
  await sql`create index virtual_accounts_ended_idx on virtual_accounts (ended_at) where ended_at is not null`.execute(
    db,
  );

  // Per route, the next account number to try; a row lock makes replicas take turns.
  await db.schema
    .createTable('clabe_cursors')
    .addColumn('route_id', 'text', (c) => c.primaryKey())
    .addColumn('next_number', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('channel_deposits')
    .addColumn('route_id', 'text', (c) => c.notNull())
    .addColumn('deposit_id', 'text', (c) => c.notNull())
    .addColumn('clabe', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('clave_rastreo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('order_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('decision', 'text', (c) => c.notNull().check(sql`decision in ('accepted', 'returned')`))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sender_account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sender_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('deliveries', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('channel_deposits_pkey', ['route_id', 'deposit_id'])
    .execute();
  await sql`create index channel_deposits_clave_idx on channel_deposits (route_id, clave_rastreo)`.execute(
    db,
  );
  await sql`create index channel_deposits_received_idx on channel_deposits (received_at)`.execute(db);

  await db.schema
    .createTable('channel_payouts')
    .addColumn('route_id', 'text', (c) => c.notNull())
    .addColumn('transfer_no', 'text', (c) => c.notNull())
    .addColumn('upstream_ref', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('clave_rastreo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('channel_payouts_pkey', ['route_id', 'transfer_no'])
    .execute();
  await sql`create index channel_payouts_ref_idx on channel_payouts (route_id, upstream_ref) where upstream_ref <> ''`.execute(
    db,
  );
  await sql`create index channel_payouts_clave_idx on channel_payouts (route_id, clave_rastreo) where clave_rastreo <> ''`.execute(
    db,
  );
  await sql`create index channel_payouts_sent_idx on channel_payouts (sent_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('channel_payouts').ifExists().execute();
  await db.schema.dropTable('channel_deposits').ifExists().execute();
  await db.schema.dropTable('clabe_cursors').ifExists().execute();
  await db.schema.dropTable('virtual_accounts').ifExists().execute();
}
