import type { OutboxTable } from '@agentpay/messaging';
import type { ColumnType, Selectable } from 'kysely';
import type { TransferStatus } from '../transfers/transfer.state-machine.js';

type Defaulted<T> = ColumnType<T, T | undefined, T>;
type CreatedAt = ColumnType<Date, never, never>;

/**
 * While `submitting`: how far the create went (`pending` not yet sent to the router, its freeze may be
 * held; `sent` the router was called; `voiding` nothing was created upstream, the freeze is being voided
 * before the row goes). After: how the submission upstream ended; `held`: in progress with its freeze,
 * waiting for a compliance person before anything goes to the router (docs/compliance.md); `queued` (a batch
 * item, frozen and `progress`, waiting for the batch sender) and `sent` (the batch sender called the router).
 */
export type Submission =
  | 'pending'
  | 'queued'
  | 'sent'
  | 'voiding'
  | 'accepted'
  | 'rejected'
  | 'unknown'
  | 'held';

export interface TransfersTable {
  /** Platform number: 'T' + UTC yyyyMMddHHmmss + 12-digit sequence; sorts by creation. */
  transfer_no: ColumnType<string, string, never>;
  mch_no: string;
  app_id: string;
  biz_transfer_no: string;
  /** Centavos. */
  amount: number;
  /** Centavos, from the merchant's rate at creation. */
  fee: number;
  title: string;
  reason: string;
  payee_type: string;
  payee_account: string;
  payee_name: string;
  /** Public (Banxico) code; derived from the CLABE for SPEI when the merchant gave none. */
  payee_code: string;
  extra_param: string;
  attach: string;
  notify_url: string;
  client_ip: string;
  status: TransferStatus;
  submission: Submission;
  /** The route that took the payout and its reference there; internal, never shown to merchants. */
  route_id: string | null;
  upstream_ref: string | null;
  /**
   * SPEI tracking key the channel gave the payout; '' until it assigned one, or when it has none. The
   * first key known is kept: a later answer without one (or with another) never replaces it.
   */
  clave_rastreo: Defaulted<string>;
  /**
   * `transfer`, or `refund`: a payout returning a paid order's money to its payer (CONTRACT section 21).
   * For a refund, transfer_no is the refundNo and biz_transfer_no the bizRefundNo; title holds the
   * merchant's reason and reason the conceptoPago sent upstream (naming the original deposit).
   */
  kind: Defaulted<TransferKind>;
  /** A refund's pay order; '' for a transfer. */
  order_no: Defaulted<string>;
  biz_order_no: Defaulted<string>;
  /** Banxico's CEP page of the payout, when the channel gave one; ''. */
  cep_url: Defaulted<string>;
  /** The sending bank's 5-digit Banxico code (the route's institution), once known; ''. */
  sender_bank: Defaulted<string>;
  /** sha256 of the business parameters, to tell a repeat from a different request on the same key. */
  fingerprint: string;
  /** +1 on every status change; events carry it so a newer change supersedes an older one. */
  version: Defaulted<number>;
  finish_time: Date | null;
  /** When reconciliation last asked upstream about this transfer. */
  checked_at: Date | null;
  created_at: CreatedAt;
  updated_at: Defaulted<Date>;
  /** The batch payout this transfer is an item of; null for a transfer created on its own. */
  batch_no: Defaulted<string | null>;
}

/** `accepting`: rows inserted, the ledger's freeze not yet confirmed; `accepted`: frozen, items queued. */
export type BatchState = 'accepting' | 'accepted';

/** A batch payout (migration 20261128T2100); its items are transfers with its batch_no. */
export interface TransferBatchesTable {
  /** 'B' + UTC yyyyMMddHHmmss + 12-digit sequence. */
  batch_no: ColumnType<string, string, never>;
  mch_no: string;
  app_id: Defaulted<string>;
  biz_batch_no: string;
  notify_url: Defaulted<string>;
  count: number;
  /** Centavos: the items' amounts, and their fees. */
  amount: number;
  fee: number;
  state: BatchState;
  /** sha256 of notify_url and the items, to tell a repeat from a different batch on the same key. */
  fingerprint: string;
  requested_by: Defaulted<string>;
  created_at: CreatedAt;
  updated_at: Defaulted<Date>;
}

export type TransferKind = 'transfer' | 'refund';

/** Per refunded order: what it paid and what its live refunds take (migration 20261128T2100_refunds). */
export interface RefundAllowancesTable {
  order_no: string;
  mch_no: string;
  /** Centavos. */
  paid: number;
  /** Centavos reserved by refunds not failed; never above `paid` (a check constraint). */
  refunded: Defaulted<number>;
  created_at: CreatedAt;
}

export interface InquiriesTable {
  /** Platform number: 'I' + UTC yyyyMMddHHmmss + 12-digit sequence. */
  inqury_no: ColumnType<string, string, never>;
  mch_no: string;
  app_id: string;
  biz_inqury_no: string;
  payee_type: string;
  payee_account: string;
  payee_name: string;
  payee_code: string;
  extra_param: string;
  attach: string;
  /** valid, invalid or unknown. */
  status: string;
  /** `local` when the format check answered, `upstream` when the router did. */
  source: string;
  fingerprint: string;
  created_at: CreatedAt;
}

/** One row per status change of a transfer, written with the change (migration 20261127T0300). */
export interface TransferStatusHistoryTable {
  id: ColumnType<number, never, never>;
  transfer_no: string;
  from_status: string;
  to_status: string;
  /** The transfer's version after the change. */
  version: number;
  created_at: CreatedAt;
}

/** A registered payee's state; `cooling` past its `usable_at` is usable (payee.service.ts reads it so). */
export type PayeeStatus = 'cooling' | 'usable' | 'removed';

export interface PayeesTable {
  /** 'P' + UTC yyyyMMddHHmmss + 12-digit sequence. */
  payee_id: string;
  mch_no: string;
  payee_type: string;
  payee_account: string;
  payee_name: string;
  payee_code: Defaulted<string>;
  status: PayeeStatus;
  /** When its cooling-off ends (or ended: an approval brings it to the approval's time). */
  usable_at: Date;
  /** `api` (a signed request) or the dashboard person's actor id. */
  registered_by: string;
  approved_by: Defaulted<string>;
  removed_at: Date | null;
  created_at: CreatedAt;
}

export interface Database {
  outbox: OutboxTable;
  payees: PayeesTable;
  transfers: TransfersTable;
  transfer_batches: TransferBatchesTable;
  transfer_status_history: TransferStatusHistoryTable;
  inquiries: InquiriesTable;
  refund_allowances: RefundAllowancesTable;
}

export type TransferRow = Selectable<TransfersTable>;
export type InquiryRow = Selectable<InquiriesTable>;
export type TransferBatchRow = Selectable<TransferBatchesTable>;
export type PayeeRow = Selectable<PayeesTable>;
export type TransferStatusHistoryRow = Selectable<TransferStatusHistoryTable>;
