// Original file: proto/transfers/v1/transfers.proto

import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from '../../../agentpay/common/v1/MerchantContext.js';
import type { TransferBatchItem as _agentpay_transfers_v1_TransferBatchItem, TransferBatchItem__Output as _agentpay_transfers_v1_TransferBatchItem__Output } from '../../../agentpay/transfers/v1/TransferBatchItem.js';

export interface CreateTransferBatchRequest {
  'merchant'?: (_agentpay_common_v1_MerchantContext | null);
  'biz_batch_no'?: (string);
  'notify_url'?: (string);
  'items'?: (_agentpay_transfers_v1_TransferBatchItem)[];
  'client_ip'?: (string);
  /**
   * Who asked: `api` (a signed request; empty means it too) or the dashboard people who requested and approved it.
   */
  'requested_by'?: (string);
}

export interface CreateTransferBatchRequest__Output {
  'merchant': (_agentpay_common_v1_MerchantContext__Output | null);
  'biz_batch_no': (string);
  'notify_url': (string);
  'items': (_agentpay_transfers_v1_TransferBatchItem__Output)[];
  'client_ip': (string);
  /**
   * Who asked: `api` (a signed request; empty means it too) or the dashboard people who requested and approved it.
   */
  'requested_by': (string);
}
