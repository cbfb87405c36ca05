// Original file: proto/events/v1/events.proto

import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from '../../../agentpay/payments/v1/PayOrder.js';
import type { Transfer as _agentpay_transfers_v1_Transfer, Transfer__Output as _agentpay_transfers_v1_Transfer__Output } from '../../../agentpay/transfers/v1/Transfer.js';
import type { Long } from '@grpc/proto-loader';

/**
 * Subjects:
 * agentpay.events.pay.status_changed       payload OrderStatusChanged with pay_order set
 * agentpay.events.transfer.status_changed  payload OrderStatusChanged with transfer set
 * agentpay.events.notice.payment           payload NoticeReceived with payment set
 * agentpay.events.notice.payout            payload NoticeReceived with payout set
 */
export interface OrderStatusChanged {
  'event_id'?: (string);
  'mch_no'?: (string);
  'app_id'?: (string);
  /**
   * pay or transfer
   */
  'kind'?: (string);
  /**
   * Platform order number (pay) or transfer number (transfer).
   */
  'order_no'?: (string);
  'from_status'?: (string);
  'to_status'?: (string);
  /**
   * The order's version after this change; a larger version supersedes a smaller one.
   */
  'version'?: (number | string | Long);
  'occurred_at'?: (string);
  'notify_url'?: (string);
  /**
   * W3C traceparent of the request or job that made the change.
   */
  'traceparent'?: (string);
  'pay_order'?: (_agentpay_payments_v1_PayOrder | null);
  'transfer'?: (_agentpay_transfers_v1_Transfer | null);
  /**
   * Internal, never in a callback: the route that holds the order or transfer and the channel's
   * reference of its virtual account or payout (empty until known). The ledger keeps them beside the
   * entries it books, so reconciliation can take a route's day of movements.
   */
  'route_id'?: (string);
  'upstream_ref'?: (string);
  /**
   * The order as the merchant's query returned it at the moment of the change.
   */
  'order'?: "pay_order"|"transfer";
}

/**
 * Subjects:
 * agentpay.events.pay.status_changed       payload OrderStatusChanged with pay_order set
 * agentpay.events.transfer.status_changed  payload OrderStatusChanged with transfer set
 * agentpay.events.notice.payment           payload NoticeReceived with payment set
 * agentpay.events.notice.payout            payload NoticeReceived with payout set
 */
export interface OrderStatusChanged__Output {
  'event_id': (string);
  'mch_no': (string);
  'app_id': (string);
  /**
   * pay or transfer
   */
  'kind': (string);
  /**
   * Platform order number (pay) or transfer number (transfer).
   */
  'order_no': (string);
  'from_status': (string);
  'to_status': (string);
  /**
   * The order's version after this change; a larger version supersedes a smaller one.
   */
  'version': (string);
  'occurred_at': (string);
  'notify_url': (string);
  /**
   * W3C traceparent of the request or job that made the change.
   */
  'traceparent': (string);
  'pay_order'?: (_agentpay_payments_v1_PayOrder__Output | null);
  'transfer'?: (_agentpay_transfers_v1_Transfer__Output | null);
  /**
   * Internal, never in a callback: the route that holds the order or transfer and the channel's
   * reference of its virtual account or payout (empty until known). The ledger keeps them beside the
   * entries it books, so reconciliation can take a route's day of movements.
   */
  'route_id': (string);
  'upstream_ref': (string);
  /**
   * The order as the merchant's query returned it at the moment of the change.
   */
  'order'?: "pay_order"|"transfer";
}
