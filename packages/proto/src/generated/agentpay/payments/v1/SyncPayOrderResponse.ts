// Original file: proto/payments/v1/payments.proto

import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from '../../../agentpay/payments/v1/PayOrder.js';

export interface SyncPayOrderResponse {
  'order'?: (_agentpay_payments_v1_PayOrder | null);
  /**
   * True when the local order changed.
   */
  'adjust'?: (boolean);
}

export interface SyncPayOrderResponse__Output {
  'order': (_agentpay_payments_v1_PayOrder__Output | null);
  /**
   * True when the local order changed.
   */
  'adjust': (boolean);
}
