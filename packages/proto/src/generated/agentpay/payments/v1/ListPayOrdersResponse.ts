// Original file: proto/payments/v1/payments.proto

import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from '../../../agentpay/payments/v1/PayOrder.js';

export interface ListPayOrdersResponse {
  'orders'?: (_agentpay_payments_v1_PayOrder)[];
  /**
   * Empty on the last page.
   */
  'next_cursor'?: (string);
}

export interface ListPayOrdersResponse__Output {
  'orders': (_agentpay_payments_v1_PayOrder__Output)[];
  /**
   * Empty on the last page.
   */
  'next_cursor': (string);
}
