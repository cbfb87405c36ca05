import type { DiscrepancyKind, DiscrepancyState, ResolutionAction, SettleType } from '@agentpay/api';
import type { OutboxTable } from '@agentpay/messaging';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { OrderKind } from '../events/status-changed.schema.js';
import type { AccountKind } from '../ledger/accounts.js';
import type { EntryType, HoldStatus } from '../ledger/booking.js';
import type { ReconRunStatus } from '../reconciliation/recon-runs.repository.js';
import type { StatementLineKind } from '../reconciliation/reconciliation.repository.js';
import type { ReturnStatus } from '../reconciliation/resolutions.js';
import type { SettlementRunStatus, SettlementTrigger } from '../settlement/settlement-runs.repository.js';

type CreatedAt = ColumnType<Date, never, never>;
/** bigint centavos; @agentpay/db reads int8 as a number (centavos stay far below 2^53). */
type Int8 = number;

export interface AccountsTable {
  /** `mch:<mchNo>:available|pending|frozen`, `fee_revenue`, `adjustments`, `clearing:<routeId>`. */
  id: string;
  kind: AccountKind;
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
  /** A merchant entry type, or with no merchant a platform entry type (booking.ts). */
  type: EntryType;
  /** null for a platform entry (no merchant part moves; its changes and balances are 0). */
  mch_no: string | null;
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
  status: HoldStatus;
  /** The Mexico City day (yyyy-MM-dd) the freeze counted its payout on; null before payout limits. */
  usage_day: string | null;
  created_at: CreatedAt;
  updated_at: Date;
}

/** A merchant's accepted payouts per Mexico City day (`yyyy-MM-dd`) or month (`yyyy-MM`): payout limits. */
export interface PayoutUsageTable {
  mch_no: string;
  period: string;
  /** Centavos: the amounts (fees excluded) of the payouts counted in the period. */
  amount: Int8;
  count: number;
  updated_at: Generated<Date>;
}

export interface PayInsTable {
  order_no: string;
  mch_no: string;
  biz_order_no: string;
  real_amount: Int8;
  settle_type: SettleType;
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
  kind: OrderKind;
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

export interface StatementLinesTable {
  route_id: string;
  /** The statement's day (yyyy-MM-dd, Mexico City). */
  day: string;
  /** The channel's reference, unique on its statement. */
  reference: string;
  kind: StatementLineKind;
  amount: Int8;
  occurred_at: Date;
  clave_rastreo: string;
  account: string;
  /** The order number (deposit) or transfer number (payout, payout_return) the channel was given. */
  platform_ref: string;
  upstream_ref: string;
  sender_account: string;
  sender_name: string;
  /** deposit: the channel applied it to its account's order. */
  applied: boolean;
}

export interface ReconRunsTable {
  id: Generated<number>;
  route_id: string;
  day: string;
  status: ReconRunStatus;
  started_at: Generated<Date>;
  finished_at: Date | null;
  lines: Generated<Int8>;
  matched: Generated<Int8>;
  pending: Generated<Int8>;
  discrepancies: Generated<Int8>;
  /** Deposits the channel sent back on arrival (deposit_returned lines): no money stayed, nothing to resolve. */
  returned: Generated<Int8>;
  error: string | null;
}

/** One settlement run: every operator run, and each timer round that settled something or failed. */
export interface SettlementRunsTable {
  id: Generated<Int8>;
  trigger: SettlementTrigger;
  /** It settled what was due by this instant. */
  until: Date;
  started_at: Date;
  finished_at: Date;
  /** Pay-ins it settled (a failed run: those before the failure, which stay settled). */
  settled: number;
  status: SettlementRunStatus;
  /** Why a failed run failed; '' otherwise. */
  error: Generated<string>;
}

export interface DiscrepanciesTable {
  id: Generated<number>;
  /** route:day:kind:reference; a run of the same day adds nothing it found before. */
  key: string;
  kind: DiscrepancyKind;
  route_id: string;
  day: string;
  /** Centavos: the channel's when there is a line, else the platform's. */
  amount: Int8;
  platform: unknown;
  channel: unknown;
  mch_no: Generated<string>;
  order_no: Generated<string>;
  transfer_no: Generated<string>;
  state: Generated<DiscrepancyState>;
  created_at: CreatedAt;
  /** '' while open. */
  resolution_action: Generated<ResolutionAction | ''>;
  resolution_operator: Generated<string>;
  resolution_reason: Generated<string>;
  resolved_at: Date | null;
  resolution_ref: Generated<string>;
  /** A return's; '' for the other actions. */
  resolution_status: Generated<ReturnStatus | ''>;
  /** The approval (four eyes) the resolution carried out; '' for one made without. */
  resolution_approval_id: Generated<string>;
  return_attempts: Generated<number>;
}

/** Who made an operator's booking (an adjustment, a discrepancy's credit), by the entry's key. */
export interface EntryOriginsTable {
  entry_key: string;
  /** `user:<uuid>` or `system:dev`, as the gateway passed it (x-agentpay-actor). */
  actor_id: string;
  /** The person's email, or `system:dev`. */
  actor_label: string;
  /** The approval (four eyes) the booking carried out. */
  approval_id: Generated<string>;
  created_at: CreatedAt;
}

export interface Database {
  outbox: OutboxTable;
  accounts: AccountsTable;
  entries: EntriesTable;
  postings: PostingsTable;
  holds: HoldsTable;
  payout_usage: PayoutUsageTable;
  pay_ins: PayInsTable;
  unmatched_events: UnmatchedEventsTable;
  observed_orders: ObservedOrdersTable;
  statement_lines: StatementLinesTable;
  recon_runs: ReconRunsTable;
  settlement_runs: SettlementRunsTable;
  discrepancies: DiscrepanciesTable;
  entry_origins: EntryOriginsTable;
}

export type EntryRow = Selectable<EntriesTable>;
export type HoldRow = Selectable<HoldsTable>;
export type PayInRow = Selectable<PayInsTable>;
export type ObservedOrderRow = Selectable<ObservedOrdersTable>;
export type DiscrepancyRow = Selectable<DiscrepanciesTable>;
export type ReconRunRow = Selectable<ReconRunsTable>;
export type SettlementRunRow = Selectable<SettlementRunsTable>;
