// Original file: proto/ledger/v1/ledger.proto

import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from '../../../agentpay/common/v1/PayoutLimits.js';
import type { Long } from '@grpc/proto-loader';

export interface FreezeRequest {
  'mch_no'?: (string);
  'transfer_no'?: (string);
  'biz_transfer_no'?: (string);
  'amount'?: (number | string | Long);
  'fee'?: (number | string | Long);
  /**
   * The merchant's payout limits in effect; absent: none (the payout is counted all the same).
   */
  'limits'?: (_agentpay_common_v1_PayoutLimits | null);
}

export interface FreezeRequest__Output {
  'mch_no': (string);
  'transfer_no': (string);
  'biz_transfer_no': (string);
  'amount': (string);
  'fee': (string);
  /**
   * The merchant's payout limits in effect; absent: none (the payout is counted all the same).
   */
  'limits': (_agentpay_common_v1_PayoutLimits__Output | null);
}
