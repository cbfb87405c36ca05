// Original file: proto/common/v1/common.proto

import type { Limit as _agentpay_common_v1_Limit, Limit__Output as _agentpay_common_v1_Limit__Output } from '../../../agentpay/common/v1/Limit.js';

/**
 * A merchant's payout limits (CONTRACT section 19), on Mexico City calendar days and months.
 */
export interface PayoutLimits {
  'per_transfer'?: (_agentpay_common_v1_Limit | null);
  'daily'?: (_agentpay_common_v1_Limit | null);
  'daily_count'?: (_agentpay_common_v1_Limit | null);
  'monthly'?: (_agentpay_common_v1_Limit | null);
}

/**
 * A merchant's payout limits (CONTRACT section 19), on Mexico City calendar days and months.
 */
export interface PayoutLimits__Output {
  'per_transfer': (_agentpay_common_v1_Limit__Output | null);
  'daily': (_agentpay_common_v1_Limit__Output | null);
  'daily_count': (_agentpay_common_v1_Limit__Output | null);
  'monthly': (_agentpay_common_v1_Limit__Output | null);
}
