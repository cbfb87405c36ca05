// Original file: proto/transfers/v1/transfers.proto

import type { RegisteredPayee as _agentpay_transfers_v1_RegisteredPayee, RegisteredPayee__Output as _agentpay_transfers_v1_RegisteredPayee__Output } from '../../../agentpay/transfers/v1/RegisteredPayee.js';

export interface RegisterPayeeResponse {
  'payee'?: (_agentpay_transfers_v1_RegisteredPayee | null);
  'created'?: (boolean);
}

export interface RegisterPayeeResponse__Output {
  'payee': (_agentpay_transfers_v1_RegisteredPayee__Output | null);
  'created': (boolean);
}
