// Original file: proto/transfers/v1/transfers.proto

import type { RegisteredPayee as _agentpay_transfers_v1_RegisteredPayee, RegisteredPayee__Output as _agentpay_transfers_v1_RegisteredPayee__Output } from '../../../agentpay/transfers/v1/RegisteredPayee.js';

export interface ListPayeesResponse {
  'payees'?: (_agentpay_transfers_v1_RegisteredPayee)[];
  /**
   * Empty on the last page.
   */
  'next_cursor'?: (string);
}

export interface ListPayeesResponse__Output {
  'payees': (_agentpay_transfers_v1_RegisteredPayee__Output)[];
  /**
   * Empty on the last page.
   */
  'next_cursor': (string);
}
