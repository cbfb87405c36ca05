// Original file: proto/transfers/v1/transfers.proto

import type { Transfer as _agentpay_transfers_v1_Transfer, Transfer__Output as _agentpay_transfers_v1_Transfer__Output } from '../../../agentpay/transfers/v1/Transfer.js';
import type { TransferStatusChange as _agentpay_transfers_v1_TransferStatusChange, TransferStatusChange__Output as _agentpay_transfers_v1_TransferStatusChange__Output } from '../../../agentpay/transfers/v1/TransferStatusChange.js';

export interface TransferHistory {
  'transfer'?: (_agentpay_transfers_v1_Transfer | null);
  'changes'?: (_agentpay_transfers_v1_TransferStatusChange)[];
  /**
   * True when the transfer is older than its stored history (transfer_status_history) and `changes` was
   * derived from its own times (created_at, finish_time) instead.
   */
  'derived'?: (boolean);
}

export interface TransferHistory__Output {
  'transfer': (_agentpay_transfers_v1_Transfer__Output | null);
  'changes': (_agentpay_transfers_v1_TransferStatusChange__Output)[];
  /**
   * True when the transfer is older than its stored history (transfer_status_history) and `changes` was
   * derived from its own times (created_at, finish_time) instead.
   */
  'derived': (boolean);
}
