// Original file: proto/ledger/v1/ledger.proto

import type { SettlementRun as _agentpay_ledger_v1_SettlementRun, SettlementRun__Output as _agentpay_ledger_v1_SettlementRun__Output } from '../../../agentpay/ledger/v1/SettlementRun.js';

export interface ListSettlementRunsResponse {
  'items'?: (_agentpay_ledger_v1_SettlementRun)[];
  /**
   * Empty on the last page.
   */
  'next_after'?: (string);
}

export interface ListSettlementRunsResponse__Output {
  'items': (_agentpay_ledger_v1_SettlementRun__Output)[];
  /**
   * Empty on the last page.
   */
  'next_after': (string);
}
