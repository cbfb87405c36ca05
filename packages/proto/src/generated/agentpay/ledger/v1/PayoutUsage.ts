// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface PayoutUsage {
  /**
   * yyyy-MM-dd and yyyy-MM, Mexico City.
   */
  'day'?: (string);
  'month'?: (string);
  /**
   * Centavos of the payouts counted today (fees excluded), how many, and centavos this month.
   */
  'payout_amount'?: (number | string | Long);
  'payout_count'?: (number | string | Long);
  'month_amount'?: (number | string | Long);
}

export interface PayoutUsage__Output {
  /**
   * yyyy-MM-dd and yyyy-MM, Mexico City.
   */
  'day': (string);
  'month': (string);
  /**
   * Centavos of the payouts counted today (fees excluded), how many, and centavos this month.
   */
  'payout_amount': (string);
  'payout_count': (string);
  'month_amount': (string);
}
