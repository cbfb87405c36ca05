// Original file: proto/router/v1/router.proto

import type { Long } from '@grpc/proto-loader';

export interface UpstreamPayment {
  /**
   * wait, success, close, fail (already translated from the channel's vocabulary)
   */
  'status'?: (string);
  'paid_amount'?: (number | string | Long);
  'paid_at'?: (string);
}

export interface UpstreamPayment__Output {
  /**
   * wait, success, close, fail (already translated from the channel's vocabulary)
   */
  'status': (string);
  'paid_amount': (string);
  'paid_at': (string);
}
