// Original file: proto/events/v1/events.proto

import type { PaymentNotice as _agentpay_events_v1_PaymentNotice, PaymentNotice__Output as _agentpay_events_v1_PaymentNotice__Output } from '../../../agentpay/events/v1/PaymentNotice.js';
import type { PayoutNotice as _agentpay_events_v1_PayoutNotice, PayoutNotice__Output as _agentpay_events_v1_PayoutNotice__Output } from '../../../agentpay/events/v1/PayoutNotice.js';

/**
 * A notice from an upstream channel, verified and recorded by the upstream-router and translated into
 * the platform's vocabulary. Published once per route and notice id; payments consumes the payment
 * notices and transfers the payout notices, each applying a notice at most once.
 */
export interface NoticeReceived {
  'event_id'?: (string);
  /**
   * The channel's own id of the notice, unique per route; recorded with the status change it causes.
   */
  'notice_id'?: (string);
  'received_at'?: (string);
  /**
   * W3C traceparent of the notice's delivery, so the change it causes continues that trace.
   */
  'traceparent'?: (string);
  'payment'?: (_agentpay_events_v1_PaymentNotice | null);
  'payout'?: (_agentpay_events_v1_PayoutNotice | null);
  'notice'?: "payment"|"payout";
}

/**
 * A notice from an upstream channel, verified and recorded by the upstream-router and translated into
 * the platform's vocabulary. Published once per route and notice id; payments consumes the payment
 * notices and transfers the payout notices, each applying a notice at most once.
 */
export interface NoticeReceived__Output {
  'event_id': (string);
  /**
   * The channel's own id of the notice, unique per route; recorded with the status change it causes.
   */
  'notice_id': (string);
  'received_at': (string);
  /**
   * W3C traceparent of the notice's delivery, so the change it causes continues that trace.
   */
  'traceparent': (string);
  'payment'?: (_agentpay_events_v1_PaymentNotice__Output | null);
  'payout'?: (_agentpay_events_v1_PayoutNotice__Output | null);
  'notice'?: "payment"|"payout";
}
