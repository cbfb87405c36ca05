// Original file: proto/payments/v1/payments.proto

import type { PayOrderRef as _agentpay_payments_v1_PayOrderRef, PayOrderRef__Output as _agentpay_payments_v1_PayOrderRef__Output } from '../../../agentpay/payments/v1/PayOrderRef.js';

export interface ClosePayOrderRequest {
  'ref'?: (_agentpay_payments_v1_PayOrderRef | null);
  /**
   * Close as `cancel` instead of `close`.
   */
  'use_cancel'?: (boolean);
}

export interface ClosePayOrderRequest__Output {
  'ref': (_agentpay_payments_v1_PayOrderRef__Output | null);
  /**
   * Close as `cancel` instead of `close`.
   */
  'use_cancel': (boolean);
}
