// Original file: proto/payments/v1/payments.proto

import type { Long } from '@grpc/proto-loader';

export interface PayOrderStatusChange {
  'from_status'?: (string);
  'to_status'?: (string);
  /**
   * The order's version after the change.
   */
  'version'?: (number | string | Long);
  /**
   * merchant, upstream, expiry; empty when derived.
   */
  'cause'?: (string);
  'at'?: (string);
}

export interface PayOrderStatusChange__Output {
  'from_status': (string);
  'to_status': (string);
  /**
   * The order's version after the change.
   */
  'version': (string);
  /**
   * merchant, upstream, expiry; empty when derived.
   */
  'cause': (string);
  'at': (string);
}
