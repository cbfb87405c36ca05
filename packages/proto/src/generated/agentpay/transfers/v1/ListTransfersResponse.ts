// Original file: proto/transfers/v1/transfers.proto

import type { Transfer as _agentpay_transfers_v1_Transfer, Transfer__Output as _agentpay_transfers_v1_Transfer__Output } from '../../../agentpay/transfers/v1/Transfer.js';

export interface ListTransfersResponse {
  'transfers'?: (_agentpay_transfers_v1_Transfer)[];
  /**
   * Empty on the last page.
   */
  'next_cursor'?: (string);
}

export interface ListTransfersResponse__Output {
  'transfers': (_agentpay_transfers_v1_Transfer__Output)[];
  /**
   * Empty on the last page.
   */
  'next_cursor': (string);
}
