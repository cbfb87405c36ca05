// Original file: proto/transfers/v1/transfers.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';

export interface InquireRequest {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'biz_inqury_no'?: (string);
  'payee_type'?: (string);
  'payee_account'?: (string);
  'payee_name'?: (string);
  'payee_code'?: (string);
  'extra_param'?: (string);
  'attach'?: (string);
}

export interface InquireRequest__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'biz_inqury_no': (string);
  'payee_type': (string);
  'payee_account': (string);
  'payee_name': (string);
  'payee_code': (string);
  'extra_param': (string);
  'attach': (string);
}
