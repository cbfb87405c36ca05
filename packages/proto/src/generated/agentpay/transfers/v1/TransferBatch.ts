// Original file: proto/transfers/v1/transfers.proto

import type { Long } from '@grpc/proto-loader';

export interface TransferBatch {
  'batch_no'?: (string);
  'biz_batch_no'?: (string);
  'mch_no'?: (string);
  /**
   * progress until every item ended, then done.
   */
  'status'?: (string);
  'count'?: (number);
  /**
   * Centavos: the items' amounts and their fees.
   */
  'amount'?: (number | string | Long);
  'fee'?: (number | string | Long);
  /**
   * Items per status.
   */
  'progress'?: (number);
  'success'?: (number);
  'fail'?: (number);
  'close'?: (number);
  'created_at'?: (string);
  'notify_url'?: (string);
}

export interface TransferBatch__Output {
  'batch_no': (string);
  'biz_batch_no': (string);
  'mch_no': (string);
  /**
   * progress until every item ended, then done.
   */
  'status': (string);
  'count': (number);
  /**
   * Centavos: the items' amounts and their fees.
   */
  'amount': (string);
  'fee': (string);
  /**
   * Items per status.
   */
  'progress': (number);
  'success': (number);
  'fail': (number);
  'close': (number);
  'created_at': (string);
  'notify_url': (string);
}
