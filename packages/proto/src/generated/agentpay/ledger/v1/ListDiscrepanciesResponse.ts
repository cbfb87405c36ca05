// Original file: proto/ledger/v1/ledger.proto

import type { Discrepancy as _agentpay_ledger_v1_Discrepancy, Discrepancy__Output as _agentpay_ledger_v1_Discrepancy__Output } from '../../../agentpay/ledger/v1/Discrepancy.js';

export interface ListDiscrepanciesResponse {
  'items'?: (_agentpay_ledger_v1_Discrepancy)[];
  'next_after_id'?: (string);
}

export interface ListDiscrepanciesResponse__Output {
  'items': (_agentpay_ledger_v1_Discrepancy__Output)[];
  'next_after_id': (string);
}
