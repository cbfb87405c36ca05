// Original file: proto/payments/v1/payments.proto

import type { Long } from '@grpc/proto-loader';

export interface ApplyUpstreamPaymentRequest {
  'order_no'?: (string);
  /**
   * Upstream status already translated by the router's adapter: success, fail, close.
   */
  'status'?: (string);
  'paid_amount'?: (number | string | Long);
  'paid_at'?: (string);
  /**
   * Upstream notice id, for idempotency and audit.
   */
  'notice_id'?: (string);
}

export interface ApplyUpstreamPaymentRequest__Output {
  'order_no': (string);
  /**
   * Upstream status already translated by the router's adapter: success, fail, close.
   */
  'status': (string);
  'paid_amount': (string);
  'paid_at': (string);
  /**
   * Upstream notice id, for idempotency and audit.
   */
  'notice_id': (string);
}
