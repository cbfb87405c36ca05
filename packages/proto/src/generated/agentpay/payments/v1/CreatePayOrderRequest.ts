// Original file: proto/payments/v1/payments.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';
import type { Long } from '@grpc/proto-loader';

export interface CreatePayOrderRequest {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'biz_order_no'?: (string);
  'title'?: (string);
  'description'?: (string);
  /**
   * Instant; empty means the default (24 h after creation).
   */
  'expired_time'?: (string);
  'method'?: (string);
  'limit_pay'?: (string);
  'amount'?: (number | string | Long);
  'extra_param'?: (string);
  'attach'?: (string);
  'return_url'?: (string);
  'quit_url'?: (string);
  'notify_url'?: (string);
  'client_ip'?: (string);
}

export interface CreatePayOrderRequest__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'biz_order_no': (string);
  'title': (string);
  'description': (string);
  /**
   * Instant; empty means the default (24 h after creation).
   */
  'expired_time': (string);
  'method': (string);
  'limit_pay': (string);
  'amount': (string);
  'extra_param': (string);
  'attach': (string);
  'return_url': (string);
  'quit_url': (string);
  'notify_url': (string);
  'client_ip': (string);
}
