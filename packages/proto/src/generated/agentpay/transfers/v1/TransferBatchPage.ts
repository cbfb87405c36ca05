// Original file: proto/transfers/v1/transfers.proto

import type { TransferBatch as _agentpay_transfers_v1_TransferBatch, TransferBatch__Output as _agentpay_transfers_v1_TransferBatch__Output } from '../../../agentpay/transfers/v1/TransferBatch.js';
import type { Transfer as _agentpay_transfers_v1_Transfer, Transfer__Output as _agentpay_transfers_v1_Transfer__Output } from '../../../agentpay/transfers/v1/Transfer.js';

export interface TransferBatchPage {
  'batch'?: (_agentpay_transfers_v1_TransferBatch | null);
  'items'?: (_agentpay_transfers_v1_Transfer)[];
  /**
   * Empty on the last page.
   */
  'next_cursor'?: (string);
}

export interface TransferBatchPage__Output {
  'batch': (_agentpay_transfers_v1_TransferBatch__Output | null);
  'items': (_agentpay_transfers_v1_Transfer__Output)[];
  /**
   * Empty on the last page.
   */
  'next_cursor': (string);
}
