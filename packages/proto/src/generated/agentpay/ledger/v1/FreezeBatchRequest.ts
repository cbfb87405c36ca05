// Original file: proto/ledger/v1/ledger.proto

import type { FreezeBatchItem as _agentpay_ledger_v1_FreezeBatchItem, FreezeBatchItem__Output as _agentpay_ledger_v1_FreezeBatchItem__Output } from '../../../agentpay/ledger/v1/FreezeBatchItem.js';
import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from '../../../agentpay/common/v1/PayoutLimits.js';

export interface FreezeBatchRequest {
  'mch_no'?: (string);
  'items'?: (_agentpay_ledger_v1_FreezeBatchItem)[];
  /**
   * The merchant's payout limits in effect; absent: none.
   */
  'limits'?: (_agentpay_common_v1_PayoutLimits | null);
}

export interface FreezeBatchRequest__Output {
  'mch_no': (string);
  'items': (_agentpay_ledger_v1_FreezeBatchItem__Output)[];
  /**
   * The merchant's payout limits in effect; absent: none.
   */
  'limits': (_agentpay_common_v1_PayoutLimits__Output | null);
}
