import { type Kysely, sql } from 'kysely';

// What the router recorded for one order or transfer (ListChannelFacts, the operators' timeline), each
// read through an index: an order's accepted deposits by order_no; the deposits its CLABE received while it
// was that order's (returned ones name no order) by (route_id, clabe, received_at); a transfer's payouts by
// transfer_no (the primary key leads with route_id). Notices already have (kind, ref).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists channel_deposits_order_idx on channel_deposits (order_no)
    where order_no <> ''`.execute(db);
  await sql`create index if not exists channel_deposits_clabe_idx
    on channel_deposits (route_id, clabe, received_at)`.execute(db);
  await sql`create index if not exists channel_payouts_transfer_idx on channel_payouts (transfer_no)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists channel_payouts_transfer_idx`.execute(db);
  await sql`drop index if exists channel_deposits_clabe_idx`.execute(db);
  await sql`drop index if exists channel_deposits_order_idx`.execute(db);
}
