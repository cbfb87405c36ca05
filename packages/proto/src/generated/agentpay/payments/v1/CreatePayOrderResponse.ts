// Original file: proto/payments/v1/payments.proto

import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from '../../../agentpay/payments/v1/PayOrder.js';

export interface CreatePayOrderResponse {
  'order'?: (_agentpay_payments_v1_PayOrder | null);
  /**
   * True when this call created the order; false when it returned an identical earlier one.
   */
  'created'?: (boolean);
}

export interface CreatePayOrderResponse__Output {
  'order': (_agentpay_payments_v1_PayOrder__Output | null);
  /**
   * True when this call created the order; false when it returned an identical earlier one.
   */
  'created': (boolean);
}
