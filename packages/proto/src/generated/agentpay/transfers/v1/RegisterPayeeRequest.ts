// Original file: proto/transfers/v1/transfers.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';

export interface RegisterPayeeRequest {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'payee_type'?: (string);
  'payee_account'?: (string);
  'payee_name'?: (string);
  'payee_code'?: (string);
  /**
   * Empty: `api`.
   */
  'registered_by'?: (string);
}

export interface RegisterPayeeRequest__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'payee_type': (string);
  'payee_account': (string);
  'payee_name': (string);
  'payee_code': (string);
  /**
   * Empty: `api`.
   */
  'registered_by': (string);
}
