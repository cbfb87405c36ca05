// Original file: proto/common/v1/common.proto

import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from '../../../agentpay/common/v1/PayoutLimits.js';
import type { Long } from '@grpc/proto-loader';

/**
 * The calling merchant, resolved and authenticated by the gateway.
 */
export interface MerchantContext {
  'mch_no'?: (string);
  'app_id'?: (string);
  /**
   * Fee rate in basis points of the amount (1 bp = 0.01 %).
   */
  'fee_percent_bps'?: (number);
  /**
   * Fixed fee per order, centavos.
   */
  'fee_fixed_centavos'?: (number | string | Long);
  /**
   * Settlement type: REALTIME, D+1, D+2 or D+3.
   */
  'settle_type'?: (string);
  /**
   * W3C traceparent of the merchant request, carried onto events.
   */
  'traceparent'?: (string);
  /**
   * The merchant's registered name: whom a payer pays (payBody's beneficiaryName), never a channel's label.
   */
  'merchant_name'?: (string);
  /**
   * The merchant's payout limits in effect (its own, else the platform's default); absent: no limits.
   */
  'payout_limits'?: (_agentpay_common_v1_PayoutLimits | null);
  /**
   * Transfers go only to payees the merchant registered and that are usable (CONTRACT section 19).
   */
  'registered_payees_only'?: (boolean);
}

/**
 * The calling merchant, resolved and authenticated by the gateway.
 */
export interface MerchantContext__Output {
  'mch_no': (string);
  'app_id': (string);
  /**
   * Fee rate in basis points of the amount (1 bp = 0.01 %).
   */
  'fee_percent_bps': (number);
  /**
   * Fixed fee per order, centavos.
   */
  'fee_fixed_centavos': (string);
  /**
   * Settlement type: REALTIME, D+1, D+2 or D+3.
   */
  'settle_type': (string);
  /**
   * W3C traceparent of the merchant request, carried onto events.
   */
  'traceparent': (string);
  /**
   * The merchant's registered name: whom a payer pays (payBody's beneficiaryName), never a channel's label.
   */
  'merchant_name': (string);
  /**
   * The merchant's payout limits in effect (its own, else the platform's default); absent: no limits.
   */
  'payout_limits': (_agentpay_common_v1_PayoutLimits__Output | null);
  /**
   * Transfers go only to payees the merchant registered and that are usable (CONTRACT section 19).
   */
  'registered_payees_only': (boolean);
}
