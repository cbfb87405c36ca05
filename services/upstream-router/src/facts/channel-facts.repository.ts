import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

// The router's own records of one order or transfer, for the operators' timeline (ListChannelFacts). Each
// read goes through an index (migration 20261127T1200_channel_fact_indexes); an order or transfer has a
// handful of rows at most.

export function virtualAccountOf(db: Kysely<Database>, orderNo: string) {
  return db
    .selectFrom('virtual_accounts')
    .select([
      'route_id',
      'clabe',
      'amount',
      'status',
      'assigned',
      'upstream_ref',
      'expires_at',
      'paid_amount',
      'paid_at',
      'clave_rastreo',
      'ended_at',
      'created_at',
    ])
    .where('order_no', '=', orderNo)
    .executeTakeFirst();
}

/**
 * The deposits of an order: those it accepted (they name it) and those its CLABE received on its route
 * from its opening until the CLABE's next account (a returned deposit names no order).
 */
export function depositsOf(
  db: Kysely<Database>,
  orderNo: string,
  account: { route_id: string; clabe: string; created_at: Date } | undefined,
) {
  let q = db
    .selectFrom('channel_deposits as d')
    .select([
      'd.route_id',
      'd.deposit_id',
      'd.clabe',
      'd.amount',
      'd.clave_rastreo',
      'd.order_no',
      'd.decision',
      'd.reason',
      'd.sender_name',
      'd.deliveries',
      'd.received_at',
    ])
    .where('d.order_no', '=', orderNo)
    .where('d.order_no', '<>', '');
  if (account) {
    const { route_id: routeId, clabe, created_at: openedAt } = account;
    q = q.union(
      db
        .selectFrom('channel_deposits as d')
        .select([
          'd.route_id',
          'd.deposit_id',
          'd.clabe',
          'd.amount',
          'd.clave_rastreo',
          'd.order_no',
          'd.decision',
          'd.reason',
          'd.sender_name',
          'd.deliveries',
          'd.received_at',
        ])
        .where('d.route_id', '=', routeId)
        .where('d.clabe', '=', clabe)
        .where('d.received_at', '>=', openedAt)
        .where(
          sql<boolean>`d.received_at < coalesce((select min(v.created_at) from virtual_accounts v
            where v.route_id = ${routeId} and v.clabe = ${clabe} and v.created_at > ${openedAt}), 'infinity')`,
        )
        .where('d.order_no', '=', ''),
    );
  }
  return q.execute();
}

export function payoutsOf(db: Kysely<Database>, transferNo: string) {
  return db
    .selectFrom('channel_payouts')
    .select(['route_id', 'upstream_ref', 'clave_rastreo', 'sent_at'])
    .where('transfer_no', '=', transferNo)
    .execute();
}

export function noticesOf(db: Kysely<Database>, kind: 'payment' | 'payout', ref: string) {
  return db
    .selectFrom('upstream_notices')
    .select(['route_id', 'notice_id', 'status', 'payload', 'received_at', 'deliveries'])
    .where('kind', '=', kind)
    .where('ref', '=', ref)
    .execute();
}
