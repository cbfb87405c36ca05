// Original file: proto/events/v1/events.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Subject agentpay.events.ledger.order_settled: a pay order's realAmount moved from pending to available
 * (at once for REALTIME, by the settlement sweep for D+N). Published by the ledger through its outbox.
 */
export interface OrderSettled {
  'event_id'?: (string);
  'mch_no'?: (string);
  'order_no'?: (string);
  'biz_order_no'?: (string);
  'settle_type'?: (string);
  /**
   * The instant of the move (RFC 3339 UTC); for REALTIME the pay time.
   */
  'settle_time'?: (string);
  'real_amount'?: (number | string | Long);
  /**
   * W3C traceparent of the cause: the pay order's status change for REALTIME, the sweep's run for D+N.
   */
  'traceparent'?: (string);
}

/**
 * Subject agentpay.events.ledger.order_settled: a pay order's realAmount moved from pending to available
 * (at once for REALTIME, by the settlement sweep for D+N). Published by the ledger through its outbox.
 */
export interface OrderSettled__Output {
  'event_id': (string);
  'mch_no': (string);
  'order_no': (string);
  'biz_order_no': (string);
  'settle_type': (string);
  /**
   * The instant of the move (RFC 3339 UTC); for REALTIME the pay time.
   */
  'settle_time': (string);
  'real_amount': (string);
  /**
   * W3C traceparent of the cause: the pay order's status change for REALTIME, the sweep's run for D+N.
   */
  'traceparent': (string);
}
