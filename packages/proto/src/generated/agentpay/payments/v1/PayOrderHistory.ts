// Original file: proto/payments/v1/payments.proto

import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from '../../../agentpay/payments/v1/PayOrder.js';
import type { PayOrderStatusChange as _agentpay_payments_v1_PayOrderStatusChange, PayOrderStatusChange__Output as _agentpay_payments_v1_PayOrderStatusChange__Output } from '../../../agentpay/payments/v1/PayOrderStatusChange.js';

export interface PayOrderHistory {
  'order'?: (_agentpay_payments_v1_PayOrder | null);
  'changes'?: (_agentpay_payments_v1_PayOrderStatusChange)[];
  /**
   * True when the stored history no longer holds every change (retention removed it) and `changes` was
   * derived from the order's own times (pay_time, close_time) instead.
   */
  'derived'?: (boolean);
}

export interface PayOrderHistory__Output {
  'order': (_agentpay_payments_v1_PayOrder__Output | null);
  'changes': (_agentpay_payments_v1_PayOrderStatusChange__Output)[];
  /**
   * True when the stored history no longer holds every change (retention removed it) and `changes` was
   * derived from the order's own times (pay_time, close_time) instead.
   */
  'derived': (boolean);
}
