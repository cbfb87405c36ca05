import type { SettleStatus, SettleType } from '@agentpay/api';
import type { OutboxTable } from '@agentpay/messaging';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { Cause, PayStatus } from '../pay-orders/pay-order.state-machine.js';

type CreatedAt = ColumnType<Date, never, never>;

export interface PayOrdersTable {
  /** 'P' + UTC yyyyMMddHHmmss + 12-digit sequence: unique and sortable by creation. */
  order_no: ColumnType<string, string | undefined, never>;
  mch_no: string;
  biz_order_no: string;
  app_id: string;
  title: string;
  description: string;
  method: string;
  limit_pay: string;
  /** Centavos. */
  amount: number;
  /** Centavos, from the merchant's rate at creation. */
  fee: number;
  /** amount − fee, centavos. */
  real_amount: number;
  status: PayStatus;
  settle_status: SettleStatus;
  settle_type: SettleType;
  settle_time: Date | null;
  pay_time: Date | null;
  /** Centavos upstream reported as received; null until paid. */
  paid_amount: number | null;
  close_time: Date | null;
  expired_time: Date;
  attach: string;
  notify_url: string;
  return_url: string;
  quit_url: string;
  extra_param: string;
  client_ip: string;
  /** The payer's instructions (JSON text); null while the virtual account is being opened. */
  pay_body: string | null;
  /** Route that opened the virtual account; internal, never shown to merchants. */
  route_id: string | null;
  /** The channel's reference of the virtual account; internal, never shown to merchants. */
  upstream_ref: string | null;
  /** SPEI tracking key of the deposit that paid the order; '' until paid or when the channel has none. */
  clave_rastreo: ColumnType<string, string | undefined, string>;
  /**
   * Who paid, from the paying deposit (refunds go back there: CONTRACT section 21); '' until paid or when
   * the channel did not say. payer_bank: the sending bank's 5-digit Banxico code.
   */
  payer_account: ColumnType<string, string | undefined, string>;
  payer_name: ColumnType<string, string | undefined, string>;
  payer_bank: ColumnType<string, string | undefined, string>;
  payer_rfc: ColumnType<string, string | undefined, string>;
  /** Banxico's CEP page of the paying deposit, when the channel gave one; ''. */
  cep_url: ColumnType<string, string | undefined, string>;
  /** SHA-256 of the business parameters: an identical repeat returns the order, another is 30002. */
  fingerprint: string;
  /** 1 at creation, +1 on every status change. */
  version: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** When the virtual account was opened; null while a create request is still opening it. */
  opened_at: Date | null;
  /** The create request that owns the opening, and until when. */
  create_claim: string | null;
  create_claim_until: Date | null;
  /** Set while an expiry sweep replica is handling the order. */
  sweep_claim_until: Date | null;
}

export interface PayOrderStatusHistoryTable {
  id: Generated<number>;
  order_no: string;
  from_status: PayStatus;
  to_status: PayStatus;
  /** The order's version after the change; unique per order, so one row per change. */
  version: number;
  cause: Cause;
  /** Upstream notice id when a notice made the change. */
  notice_id: string | null;
  /** The outbox event that announced the change. */
  event_id: string;
  created_at: CreatedAt;
}

export interface PayOrderTransitionsTable {
  from_status: PayStatus;
  to_status: PayStatus;
}

export interface Database {
  outbox: OutboxTable;
  pay_orders: PayOrdersTable;
  pay_order_status_history: PayOrderStatusHistoryTable;
  pay_order_transitions: PayOrderTransitionsTable;
}

export type PayOrderRow = Selectable<PayOrdersTable>;
export type NewPayOrderRow = Insertable<PayOrdersTable>;
export type StatusHistoryRow = Selectable<PayOrderStatusHistoryTable>;
