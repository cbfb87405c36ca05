// Original file: proto/transfers/v1/transfers.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';

export interface RefundRef {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'refund_no'?: (string);
  'biz_refund_no'?: (string);
}

export interface RefundRef__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'refund_no': (string);
  'biz_refund_no': (string);
}
