// Original file: proto/transfers/v1/transfers.proto

import type { TransferBatch as _agentpay_transfers_v1_TransferBatch, TransferBatch__Output as _agentpay_transfers_v1_TransferBatch__Output } from '../../../agentpay/transfers/v1/TransferBatch.js';

export interface CreateTransferBatchResponse {
  'batch'?: (_agentpay_transfers_v1_TransferBatch | null);
  'created'?: (boolean);
}

export interface CreateTransferBatchResponse__Output {
  'batch': (_agentpay_transfers_v1_TransferBatch__Output | null);
  'created': (boolean);
}
