// Original file: proto/ledger/v1/ledger.proto

import type { ReconciliationRouteResult as _agentpay_ledger_v1_ReconciliationRouteResult, ReconciliationRouteResult__Output as _agentpay_ledger_v1_ReconciliationRouteResult__Output } from '../../../agentpay/ledger/v1/ReconciliationRouteResult.js';

export interface RunReconciliationResponse {
  'day'?: (string);
  'routes'?: (_agentpay_ledger_v1_ReconciliationRouteResult)[];
}

export interface RunReconciliationResponse__Output {
  'day': (string);
  'routes': (_agentpay_ledger_v1_ReconciliationRouteResult__Output)[];
}
