// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface AdjustRequest {
  'mch_no'?: (string);
  /**
   * Signed, non-zero, centavos: + into available, - out of it.
   */
  'amount'?: (number | string | Long);
  'reason'?: (string);
  /**
   * 1..100 characters; a repeat with the same reference returns the first adjustment.
   */
  'reference'?: (string);
}

export interface AdjustRequest__Output {
  'mch_no': (string);
  /**
   * Signed, non-zero, centavos: + into available, - out of it.
   */
  'amount': (string);
  'reason': (string);
  /**
   * 1..100 characters; a repeat with the same reference returns the first adjustment.
   */
  'reference': (string);
}
