// Original file: proto/transfers/v1/transfers.proto

import type { Transfer as _agentpay_transfers_v1_Transfer, Transfer__Output as _agentpay_transfers_v1_Transfer__Output } from '../../../agentpay/transfers/v1/Transfer.js';

export interface CreateTransferResponse {
  'transfer'?: (_agentpay_transfers_v1_Transfer | null);
  'created'?: (boolean);
}

export interface CreateTransferResponse__Output {
  'transfer': (_agentpay_transfers_v1_Transfer__Output | null);
  'created': (boolean);
}
