import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
type Timestamp = ColumnType<Date, Date, Date>;
type NullableTimestamp = ColumnType<Date | null, Date | null | undefined, Date | null>;

export type AccountStatus = 'open' | 'paid' | 'closed' | 'expired';
export type PayoutStatus = 'processing' | 'succeeded' | 'failed' | 'returned' | 'rejected';
/** What the outcome rules decided at acceptance; `none` for a payout rejected at once. */
export type PlannedOutcome = 'succeed' | 'fail' | 'return' | 'none';

export interface VirtualAccountsTable {
  id: string;
  /** The platform's order number; one account per order, ever. */
  order_ref: string;
  clabe: string;
  reference: string;
  /** Centavos the payer must send. */
  amount: number;
  expires_at: Timestamp;
  notice_url: string;
  status: ColumnType<AccountStatus, AccountStatus | undefined, AccountStatus>;
  paid_amount: ColumnType<number, number | undefined, number>;
  paid_at: NullableTimestamp;
  closed_at: NullableTimestamp;
  created_at: CreatedAt;
}

export interface DepositsTable {
  id: string;
  clabe: string;
  amount: number;
  account_id: string | null;
  matched: boolean;
  /** Why an unmatched deposit was not applied: unknown_account, amount_mismatch, account_paid, … */
  reason: string | null;
  notify: boolean;
  /** SPEI tracking key of the incoming transfer, unique, at most 30 characters. */
  clave_rastreo: string;
  /** The payer's account (a CLABE) and name, as SPEI reports them; a return goes back there. */
  sender_account: string;
  sender_name: string;
  /** What the statement shows instead of `amount` (a tester's trigger); null: the real amount. */
  statement_amount: number | null;
  created_at: CreatedAt;
}

export interface PayoutsTable {
  id: string;
  payout_ref: string;
  amount: number;
  payee_type: string;
  account: string;
  name: string;
  bank_code: string;
  notice_url: string;
  status: PayoutStatus;
  planned_outcome: PlannedOutcome;
  reason: string | null;
  /** When a `processing` payout settles; the settle scheduler's queue. */
  settle_at: NullableTimestamp;
  /** When a `succeeded` payout planned to be returned comes back. */
  return_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  returned_at: NullableTimestamp;
  /** SPEI tracking key of the money leaving; set when the payout succeeds. */
  clave_rastreo: ColumnType<string | null, string | null | undefined, string | null>;
  /** SPEI tracking key of the money coming back; set when the payout is returned. */
  return_clave_rastreo: ColumnType<string | null, string | null | undefined, string | null>;
  /** A tester's trigger: the payout succeeds and notifies but the statement leaves it off. */
  statement_omit: ColumnType<boolean, boolean | undefined, boolean>;
  /** What the statement shows instead of `amount` for the payout (a tester's trigger); null: the real one. */
  statement_amount: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
}

export interface NoticesTable {
  /** Unique notice id, also inside the body; the platform dedupes on it. */
  id: string;
  type: string;
  /** orderRef or payoutRef the notice is about. */
  ref: string;
  url: string;
  /** The exact JSON text sent (and signed), so a retry sends the same bytes. */
  body: string;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  delivered_at: NullableTimestamp;
  gave_up_at: NullableTimestamp;
  last_status: number | null;
  last_error: string | null;
  created_at: CreatedAt;
}

export interface Database {
  virtual_accounts: VirtualAccountsTable;
  deposits: DepositsTable;
  payouts: PayoutsTable;
  notices: NoticesTable;
}

export type VirtualAccountRow = Selectable<VirtualAccountsTable>;
export type DepositRow = Selectable<DepositsTable>;
export type PayoutRow = Selectable<PayoutsTable>;
export type NoticeRow = Selectable<NoticesTable>;
