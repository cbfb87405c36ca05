// Original file: proto/ledger/v1/ledger.proto

import type { LedgerRecord as _agentpay_ledger_v1_LedgerRecord, LedgerRecord__Output as _agentpay_ledger_v1_LedgerRecord__Output } from '../../../agentpay/ledger/v1/LedgerRecord.js';

export interface FreezeResponse {
  'record'?: (_agentpay_ledger_v1_LedgerRecord | null);
  /**
   * False when the freeze existed already (a retry).
   */
  'created'?: (boolean);
}

export interface FreezeResponse__Output {
  'record': (_agentpay_ledger_v1_LedgerRecord__Output | null);
  /**
   * False when the freeze existed already (a retry).
   */
  'created': (boolean);
}
