// Original file: proto/ledger/v1/ledger.proto

import type { LedgerRecord as _agentpay_ledger_v1_LedgerRecord, LedgerRecord__Output as _agentpay_ledger_v1_LedgerRecord__Output } from '../../../agentpay/ledger/v1/LedgerRecord.js';

export interface AdjustResponse {
  'record'?: (_agentpay_ledger_v1_LedgerRecord | null);
  'created'?: (boolean);
}

export interface AdjustResponse__Output {
  'record': (_agentpay_ledger_v1_LedgerRecord__Output | null);
  'created': (boolean);
}
