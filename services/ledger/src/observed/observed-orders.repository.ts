import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { StatusChanged } from '../events/status-changed.schema.js';

interface Fact {
  kind: 'pay' | 'transfer';
  number: string;
  mch_no: string;
  biz_no: string;
  status: string;
  amount: number;
  fee: number;
  route_id: string;
  upstream_ref: string;
  version: number;
  occurred_at: string;
  succeeded_at: string | null;
  returned_at: string | null;
}

const earliest = (a: string | null, b: string | null) => (a && b ? (a < b ? a : b) : (a ?? b));

/** The fact one event states about its order or transfer. */
export function factOf(event: StatusChanged): Fact {
  const occurred = event.occurred_at || new Date().toISOString();
  const common = {
    kind: event.kind,
    number: event.order_no,
    mch_no: event.mch_no,
    status: event.to_status,
    route_id: event.route_id,
    upstream_ref: event.upstream_ref,
    version: event.version,
    occurred_at: occurred,
  };
  if (event.kind === 'pay') {
    const order = event.pay_order;
    const succeeded =
      event.to_status === 'success' ? new Date(order.pay_time || occurred).toISOString() : null;
    return {
      ...common,
      biz_no: order.biz_order_no,
      amount: order.amount,
      fee: order.fee,
      succeeded_at: succeeded,
      returned_at: null,
    };
  }
  const transfer = event.transfer;
  const returned = event.to_status === 'close' && event.from_status === 'success';
  return {
    ...common,
    biz_no: transfer.biz_transfer_no,
    amount: transfer.amount,
    fee: transfer.fee,
    succeeded_at: event.to_status === 'success' ? occurred : null,
    returned_at: returned ? occurred : null,
  };
}

/**
 * Keeps the latest observed fact of each order and transfer the events name, in the caller's transaction
 * (the one that books what the events cause). The row follows the event with the highest version: an
 * older one, redelivered or reordered, changes nothing but what it alone knows (when the order succeeded
 * or was returned, and a route or channel reference the newer event did not carry yet).
 */
export async function upsertObserved(
  trx: Transaction<Database>,
  events: readonly StatusChanged[],
): Promise<void> {
  if (events.length === 0) return;
  // One row per order in the statement (ON CONFLICT cannot touch a row twice): the newest fact, with
  // the times and references the others know.
  const byKey = new Map<string, Fact>();
  for (const event of events) {
    const fact = factOf(event);
    const key = `${fact.kind}:${fact.number}`;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, fact);
      continue;
    }
    const [newer, older] = fact.version > seen.version ? [fact, seen] : [seen, fact];
    byKey.set(key, {
      ...newer,
      route_id: newer.route_id || older.route_id,
      upstream_ref: newer.upstream_ref || older.upstream_ref,
      succeeded_at: earliest(newer.succeeded_at, older.succeeded_at),
      returned_at: earliest(newer.returned_at, older.returned_at),
    });
  }
  const facts = [...byKey.values()].sort((a, b) =>
    a.kind === b.kind ? (a.number < b.number ? -1 : 1) : a.kind < b.kind ? -1 : 1,
  );
  const col = <K extends keyof Fact>(k: K) => facts.map((f) => f[k]);
  await sql`
    insert into observed_orders as o (kind, number, mch_no, biz_no, status, amount, fee, route_id, upstream_ref,
      version, occurred_at, succeeded_at, returned_at)
    select * from unnest(${col('kind')}::text[], ${col('number')}::text[], ${col('mch_no')}::text[],
      ${col('biz_no')}::text[], ${col('status')}::text[], ${col('amount')}::bigint[], ${col('fee')}::bigint[],
      ${col('route_id')}::text[], ${col('upstream_ref')}::text[], ${col('version')}::bigint[],
      ${col('occurred_at')}::timestamptz[], ${col('succeeded_at')}::timestamptz[], ${col('returned_at')}::timestamptz[])
    on conflict (kind, number) do update set
      status = case when excluded.version > o.version then excluded.status else o.status end,
      amount = case when excluded.version > o.version then excluded.amount else o.amount end,
      fee = case when excluded.version > o.version then excluded.fee else o.fee end,
      biz_no = case when excluded.version > o.version then excluded.biz_no else o.biz_no end,
      occurred_at = case when excluded.version > o.version then excluded.occurred_at else o.occurred_at end,
      route_id = case when excluded.version > o.version and excluded.route_id <> '' or o.route_id = ''
        then excluded.route_id else o.route_id end,
      upstream_ref = case when excluded.version > o.version and excluded.upstream_ref <> '' or o.upstream_ref = ''
        then excluded.upstream_ref else o.upstream_ref end,
      version = greatest(o.version, excluded.version),
      succeeded_at = least(o.succeeded_at, excluded.succeeded_at),
      returned_at = least(o.returned_at, excluded.returned_at),
      updated_at = now()`.execute(trx);
}
