// Original file: proto/router/v1/router.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Counts and centavos of one direction (pay-ins or payouts) on one route and day.
 */
export interface FlowFigures {
  /**
   * Created that day: virtual accounts opened (pay-ins), payouts sent (payouts).
   */
  'count'?: (number | string | Long);
  /**
   * Centavos of those: what the orders ask, what the payouts send.
   */
  'amount'?: (number | string | Long);
  /**
   * Paid (pay-ins), succeeded at the channel (payouts), and their centavos (the amounts paid, sent).
   */
  'succeeded'?: (number | string | Long);
  'succeeded_amount'?: (number | string | Long);
  /**
   * Closed unpaid (pay-ins); failed, returned, or not taken by the route (payouts).
   */
  'failed'?: (number | string | Long);
  /**
   * Neither yet: open (pay-ins), in progress (payouts).
   */
  'pending'?: (number | string | Long);
}

/**
 * Counts and centavos of one direction (pay-ins or payouts) on one route and day.
 */
export interface FlowFigures__Output {
  /**
   * Created that day: virtual accounts opened (pay-ins), payouts sent (payouts).
   */
  'count': (string);
  /**
   * Centavos of those: what the orders ask, what the payouts send.
   */
  'amount': (string);
  /**
   * Paid (pay-ins), succeeded at the channel (payouts), and their centavos (the amounts paid, sent).
   */
  'succeeded': (string);
  'succeeded_amount': (string);
  /**
   * Closed unpaid (pay-ins); failed, returned, or not taken by the route (payouts).
   */
  'failed': (string);
  /**
   * Neither yet: open (pay-ins), in progress (payouts).
   */
  'pending': (string);
}
