// Original file: proto/ledger/v1/ledger.proto

import type { MerchantBalance as _agentpay_ledger_v1_MerchantBalance, MerchantBalance__Output as _agentpay_ledger_v1_MerchantBalance__Output } from '../../../agentpay/ledger/v1/MerchantBalance.js';
import type { LedgerRecord as _agentpay_ledger_v1_LedgerRecord, LedgerRecord__Output as _agentpay_ledger_v1_LedgerRecord__Output } from '../../../agentpay/ledger/v1/LedgerRecord.js';

export interface GetStatementResponse {
  /**
   * The three parts right before start_time (after the last entry before it; zero without one).
   */
  'opening'?: (_agentpay_ledger_v1_MerchantBalance | null);
  /**
   * The three parts right before end_time.
   */
  'closing'?: (_agentpay_ledger_v1_MerchantBalance | null);
  'records'?: (_agentpay_ledger_v1_LedgerRecord)[];
  /**
   * Empty on the last page.
   */
  'next_cursor'?: (string);
}

export interface GetStatementResponse__Output {
  /**
   * The three parts right before start_time (after the last entry before it; zero without one).
   */
  'opening': (_agentpay_ledger_v1_MerchantBalance__Output | null);
  /**
   * The three parts right before end_time.
   */
  'closing': (_agentpay_ledger_v1_MerchantBalance__Output | null);
  'records': (_agentpay_ledger_v1_LedgerRecord__Output)[];
  /**
   * Empty on the last page.
   */
  'next_cursor': (string);
}
