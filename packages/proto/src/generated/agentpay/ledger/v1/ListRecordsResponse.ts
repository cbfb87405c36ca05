// Original file: proto/ledger/v1/ledger.proto

import type { LedgerRecord as _agentpay_ledger_v1_LedgerRecord, LedgerRecord__Output as _agentpay_ledger_v1_LedgerRecord__Output } from '../../../agentpay/ledger/v1/LedgerRecord.js';

export interface ListRecordsResponse {
  'records'?: (_agentpay_ledger_v1_LedgerRecord)[];
  /**
   * Empty on the last page.
   */
  'next_cursor'?: (string);
}

export interface ListRecordsResponse__Output {
  'records': (_agentpay_ledger_v1_LedgerRecord__Output)[];
  /**
   * Empty on the last page.
   */
  'next_cursor': (string);
}
