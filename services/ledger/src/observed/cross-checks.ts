import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { CrossCheck } from '../ledger/check.repository.js';

/** Problems of each kind listed at most this often. */
const SAMPLE = 20;

async function named(db: Kysely<Database>, label: string, query: ReturnType<typeof sql<{ id: string }>>) {
  const { rows } = await query.execute(db);
  return rows.slice(0, SAMPLE).map((r) => `${label}: ${r.id}`);
}

/**
 * Every pay order observed in `success` has exactly one pay-in entry, of the order's amount; a pay-in
 * entry of an order observed in another status is named too (money booked for an order that did not pay).
 */
export const payInsMatchOrders: CrossCheck = async (db) => [
  ...(await named(
    db,
    'successful pay order without exactly one pay-in of its amount',
    sql<{
      id: string;
    }>`select o.number || ' (' || count(e.id) || ' pay-in entries, amount ' || o.amount || ')' as id
      from observed_orders o
      left join entries e on e.type = 'pay_in' and e.order_no = o.number
      where o.kind = 'pay' and o.status = 'success'
      group by o.number, o.amount
      having count(e.id) <> 1 or min(e.amount) <> o.amount or max(e.amount) <> o.amount
      order by o.number limit ${SAMPLE}`,
  )),
  ...(await named(
    db,
    'pay-in entry for an order that is not successful',
    sql<{ id: string }>`select o.number || ' (' || o.status || ')' as id
      from observed_orders o join entries e on e.type = 'pay_in' and e.order_no = o.number
      where o.kind = 'pay' and o.status <> 'success'
      order by o.number limit ${SAMPLE}`,
  )),
];

/**
 * Every observed transfer's entries match its status: frozen while in flight (a freeze and nothing
 * else), moved out on success, released on fail or close before success, moved out and returned on
 * success -> close; each entry of the transfer's amount and fee.
 */
export const transfersMatchEntries: CrossCheck = (db) =>
  named(
    db,
    "transfer's entries do not match its status",
    // One pass over the transfer entries, grouped, joined to the observed transfers by hash (no index on
    // entries.transfer_no, and none needed for a check that reads them all anyway).
    sql<{ id: string }>`with x as (
        select transfer_no, string_agg(type, ',' order by id) as types,
          count(*) filter (where type = 'transfer_freeze') as freezes,
          count(*) filter (where type = 'transfer_unfreeze') as releases,
          count(*) filter (where type = 'transfer_out') as outs,
          count(*) filter (where type = 'transfer_return') as returns,
          min(amount) as min_amount, max(amount) as max_amount, min(fee) as min_fee, max(fee) as max_fee
        from entries where transfer_no is not null group by transfer_no)
      select o.number || ' (' || o.status || case when o.returned_at is not null then ', returned' else '' end
          || ': ' || coalesce(x.types, 'no entries') || ')' as id
      from observed_orders o left join x on x.transfer_no = o.number
      where o.kind = 'transfer' and (
        x.transfer_no is null or x.freezes <> 1
        or x.min_amount <> o.amount or x.max_amount <> o.amount or x.min_fee <> o.fee or x.max_fee <> o.fee
        or case
          -- success -> close is final: once observed, the transfer is returned whatever event came last.
          when o.returned_at is not null then x.outs <> 1 or x.releases <> 0 or x.returns <> 1
          when o.status = 'success' then x.outs <> 1 or x.releases <> 0 or x.returns <> 0
          when o.status in ('fail', 'close') then x.releases <> 1 or x.outs <> 0 or x.returns <> 0
          else x.releases <> 0 or x.outs <> 0 or x.returns <> 0
        end)
      order by o.number limit ${SAMPLE}`,
  );

/** The checks of the books against the orders the ledger observed (CONTRACT.md 13, GET /admin/ledger/check). */
export const observedCrossChecks: readonly CrossCheck[] = [payInsMatchOrders, transfersMatchEntries];
