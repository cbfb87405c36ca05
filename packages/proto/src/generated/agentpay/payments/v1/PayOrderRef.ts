// Original file: proto/payments/v1/payments.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';

/**
 * Identifies an order of one merchant by platform number, merchant number, or both (then both must match).
 */
export interface PayOrderRef {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'order_no'?: (string);
  'biz_order_no'?: (string);
}

/**
 * Identifies an order of one merchant by platform number, merchant number, or both (then both must match).
 */
export interface PayOrderRef__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'order_no': (string);
  'biz_order_no': (string);
}
