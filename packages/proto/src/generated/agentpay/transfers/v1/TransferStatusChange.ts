// Original file: proto/transfers/v1/transfers.proto

import type { Long } from '@grpc/proto-loader';

export interface TransferStatusChange {
  'from_status'?: (string);
  'to_status'?: (string);
  /**
   * The transfer's version after the change.
   */
  'version'?: (number | string | Long);
  'at'?: (string);
}

export interface TransferStatusChange__Output {
  'from_status': (string);
  'to_status': (string);
  /**
   * The transfer's version after the change.
   */
  'version': (string);
  'at': (string);
}
