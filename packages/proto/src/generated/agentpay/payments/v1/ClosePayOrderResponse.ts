// Original file: proto/payments/v1/payments.proto

import type { PayOrder as _agentpay_payments_v1_PayOrder, PayOrder__Output as _agentpay_payments_v1_PayOrder__Output } from '../../../agentpay/payments/v1/PayOrder.js';

export interface ClosePayOrderResponse {
  'order'?: (_agentpay_payments_v1_PayOrder | null);
}

export interface ClosePayOrderResponse__Output {
  'order': (_agentpay_payments_v1_PayOrder__Output | null);
}
