import type { OutboxTable } from '@agentpay/messaging';
import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
/** bigint centavos; @agentpay/db reads int8 as a number (centavos stay far below 2^53). */
type Int8 = number;

export interface AccountsTable {
  /** `mch:<mchNo>:available|pending|frozen`, `fee_revenue`, `adjustments`, `clearing:<routeId>`. */
  id: string;
  /** available | pending | frozen | fee_revenue | adjustments | clearing */
  kind: string;
  /** The owning merchant for its three parts; null for platform accounts. */
  mch_no: string | null;
  /** Sum of the account's postings, centavos; merchant parts never below zero (CHECK). */
  balance: Generated<Int8>;
  /** How many postings the account has; check() compares it with the journal. */
  postings: Generated<Int8>;
  created_at: CreatedAt;
}

export interface EntriesTable {
  id: Generated<number>;
  /** Derived from the cause (`pay_in:<orderNo>`, `freeze:<transferNo>`, …): a repeat books nothing. */
  key: string;
  /** pay_in | settle | transfer_freeze | transfer_unfreeze | transfer_out | transfer_return | adjust */
  type: string;
  mch_no: string;
  order_no: string | null;
  biz_order_no: string | null;
  transfer_no: string | null;
  biz_transfer_no: string | null;
  /** The order's or transfer's amount; for adjust the signed adjustment. */
  amount: Int8;
  fee: Int8;
  remark: string;
  /** The merchant's three parts: this entry's change and the balance right after it. */
  available_change: Int8;
  pending_change: Int8;
  frozen_change: Int8;
  available_after: Int8;
  pending_after: Int8;
  frozen_after: Int8;
  /** clock_timestamp() at insert, taken after the merchant's rows are locked, so it follows the chain. */
  created_at: CreatedAt;
}

export interface PostingsTable {
  entry_id: number;
  account: string;
  /** Signed centavos; an entry's postings sum to zero. */
  amount: Int8;
  /** The account's balance right after this posting. */
  balance_after: Int8;
}

export interface HoldsTable {
  /** One hold per transfer, from its freeze to its outcome. */
  transfer_no: string;
  mch_no: string;
  biz_transfer_no: string;
  amount: Int8;
  fee: Int8;
  /** frozen | released | out | returned | void (void: released by VoidFreeze, or a tombstone) */
  status: string;
  created_at: CreatedAt;
  updated_at: Date;
}

export interface PayInsTable {
  order_no: string;
  mch_no: string;
  biz_order_no: string;
  real_amount: Int8;
  /** REALTIME | D+1 | D+2 | D+3 */
  settle_type: string;
  pay_time: Date;
  /** 00:00 Mexico City of the N-th business day after the pay day; pay_time for REALTIME. */
  due_at: Date;
  settled_at: Date | null;
}

export interface UnmatchedEventsTable {
  id: Generated<number>;
  /** The JetStream message id (event_id) when there is one; a redelivery is recorded once. */
  event_id: string;
  subject: string;
  reason: string;
  payload: unknown;
  created_at: CreatedAt;
}

export interface ObservedOrdersTable {
  /** pay | transfer */
  kind: string;
  /** The pay order's or the transfer's number. */
  number: string;
  mch_no: string;
  /** bizOrderNo or bizTransferNo. */
  biz_no: string;
  /** The latest status observed (the event with the highest version). */
  status: string;
  amount: Int8;
  fee: Int8;
  /** Internal: the route holding it, and the channel's reference there ('' until known). */
  route_id: string;
  upstream_ref: string;
  /** The version of the event the row holds; an older event never overwrites a newer one. */
  version: Int8;
  occurred_at: Date;
  /** When it reached success (a pay order's pay time), kept whatever order the events came in. */
  succeeded_at: Date | null;
  /** A transfer's success -> close (returned by the receiving bank). */
  returned_at: Date | null;
  updated_at: Generated<Date>;
}

export interface Database {
  outbox: OutboxTable;
  accounts: AccountsTable;
  entries: EntriesTable;
  postings: PostingsTable;
  holds: HoldsTable;
  pay_ins: PayInsTable;
  unmatched_events: UnmatchedEventsTable;
  observed_orders: ObservedOrdersTable;
}

export type EntryRow = Selectable<EntriesTable>;
export type HoldRow = Selectable<HoldsTable>;
export type PayInRow = Selectable<PayInsTable>;
export type ObservedOrderRow = Selectable<ObservedOrdersTable>;
