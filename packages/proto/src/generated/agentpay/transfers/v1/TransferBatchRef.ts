// Original file: proto/transfers/v1/transfers.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';

export interface TransferBatchRef {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'batch_no'?: (string);
  'biz_batch_no'?: (string);
  /**
   * The previous page's next_cursor; empty for the first page.
   */
  'cursor'?: (string);
  /**
   * 1..500; 0 means 100.
   */
  'limit'?: (number);
}

export interface TransferBatchRef__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'batch_no': (string);
  'biz_batch_no': (string);
  /**
   * The previous page's next_cursor; empty for the first page.
   */
  'cursor': (string);
  /**
   * 1..500; 0 means 100.
   */
  'limit': (number);
}
