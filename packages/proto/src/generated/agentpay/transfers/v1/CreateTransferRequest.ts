// Original file: proto/transfers/v1/transfers.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateTransferRequest {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'biz_transfer_no'?: (string);
  'amount'?: (number | string | Long);
  'title'?: (string);
  'reason'?: (string);
  'payee_type'?: (string);
  'payee_account'?: (string);
  'payee_name'?: (string);
  'payee_code'?: (string);
  'extra_param'?: (string);
  'attach'?: (string);
  'notify_url'?: (string);
  'client_ip'?: (string);
}

export interface CreateTransferRequest__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'biz_transfer_no': (string);
  'amount': (string);
  'title': (string);
  'reason': (string);
  'payee_type': (string);
  'payee_account': (string);
  'payee_name': (string);
  'payee_code': (string);
  'extra_param': (string);
  'attach': (string);
  'notify_url': (string);
  'client_ip': (string);
}
