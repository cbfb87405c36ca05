// Original file: proto/transfers/v1/transfers.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';

export interface TransferRef {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'transfer_no'?: (string);
  'biz_transfer_no'?: (string);
}

export interface TransferRef__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'transfer_no': (string);
  'biz_transfer_no': (string);
}
