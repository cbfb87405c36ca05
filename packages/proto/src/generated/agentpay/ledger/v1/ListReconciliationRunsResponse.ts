// Original file: proto/ledger/v1/ledger.proto

import type { ReconciliationRun as _agentpay_ledger_v1_ReconciliationRun, ReconciliationRun__Output as _agentpay_ledger_v1_ReconciliationRun__Output } from '../../../agentpay/ledger/v1/ReconciliationRun.js';

export interface ListReconciliationRunsResponse {
  'items'?: (_agentpay_ledger_v1_ReconciliationRun)[];
  'next_before_id'?: (string);
}

export interface ListReconciliationRunsResponse__Output {
  'items': (_agentpay_ledger_v1_ReconciliationRun__Output)[];
  'next_before_id': (string);
}
