import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { merchantAccount } from './accounts.js';

// The operators' and the merchant dashboard's reads of the books beyond a page of records: a merchant's
// balance at an instant (a statement's opening and closing), and each merchant's last settlement (the
// ledger records no settlement runs: a run is a batch of settle entries, each for its own merchant; each
// pay-in's row keeps when it was settled).

export interface Parts {
  available: number;
  pending: number;
  frozen: number;
}

/**
 * The merchant's three parts right before `at`: the balances the last entry before it left (every entry
 * carries them), zero when there is none. One row read backwards on the index (mch_no, created_at, id).
 */
export async function balanceBefore(db: Kysely<Database>, mchNo: string, at: Date): Promise<Parts> {
  const row = await db
    .selectFrom('entries')
    .select(['available_after', 'pending_after', 'frozen_after'])
    .where('mch_no', '=', mchNo)
    .where('created_at', '<', at)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row
    ? { available: row.available_after, pending: row.pending_after, frozen: row.frozen_after }
    : { available: 0, pending: 0, frozen: 0 };
}

export interface MerchantSettlementRow {
  mch_no: string;
  available: number;
  pending: number;
  last_settled_at: Date | null;
  last_order_no: string | null;
  /** The latest settled pay-in's real amount (what moved into available), centavos; null without one. */
  last_amount: number | null;
}

export interface SettlementsPage {
  items: MerchantSettlementRow[];
  /** Opaque; undefined on the last page. */
  nextAfter: string | undefined;
}

/** A settlements cursor names the last merchant of the previous page. */
export function encodeSettlementsCursor(mchNo: string): string {
  return Buffer.from(`m${mchNo}`).toString('base64url');
}

/** The merchant a settlements cursor names, or null when it is not one of ours. */
export function decodeSettlementsCursor(cursor: string): string | null {
  const text = Buffer.from(cursor, 'base64url').toString();
  return /^m[A-Za-z0-9_-]{1,32}$/.test(text) ? text.slice(1) : null;
}

/**
 * Each merchant's available and pending and its latest settled pay-in (a D+N one when the sweep or a run
 * moved it, a REALTIME one at its pay time), in the order of its available account's id (the accounts'
 * primary key: a keyset that stays as fast on page 1000 as on page 1). The latest settled pay-in is one
 * row read backwards on pay_ins_settled_idx per merchant of the page.
 */
export async function listSettlements(
  db: Kysely<Database>,
  query: { limit: number; after: string | null },
): Promise<SettlementsPage> {
  const rows = await settlementsQuery(db, query).execute();
  const items = rows.slice(0, query.limit).map((row) => ({
    mch_no: row.mch_no ?? '',
    available: row.available,
    pending: row.pending,
    last_settled_at: row.last_settled_at ?? null,
    last_order_no: row.last_order_no ?? null,
    last_amount: row.last_amount ?? null,
  }));
  const last = items.at(-1);
  return {
    items,
    nextAfter: rows.length > query.limit && last ? encodeSettlementsCursor(last.mch_no) : undefined,
  };
}

/** The settlements page's query (one row more than a page); tests EXPLAIN it. */
export function settlementsQuery(db: Kysely<Database>, query: { limit: number; after: string | null }) {
  let q = db
    .selectFrom('accounts as a')
    .innerJoin('accounts as p', (join) => join.on(sql<boolean>`p.id = 'mch:' || a.mch_no || ':pending'`))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('pay_ins as s')
          .select(['s.settled_at', 's.order_no', 's.real_amount'])
          .whereRef('s.mch_no', '=', 'a.mch_no')
          .where('s.settled_at', 'is not', null)
          .orderBy('s.settled_at', 'desc')
          .limit(1)
          .as('s'),
      (join) => join.onTrue(),
    )
    .select([
      'a.mch_no',
      'a.balance as available',
      'p.balance as pending',
      's.settled_at as last_settled_at',
      's.order_no as last_order_no',
      's.real_amount as last_amount',
    ])
    .where('a.kind', '=', 'available');
  if (query.after !== null) q = q.where('a.id', '>', merchantAccount(query.after, 'available'));
  return q.orderBy('a.id').limit(query.limit + 1);
}
