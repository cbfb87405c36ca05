// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface FreezeRequest {
  'mch_no'?: (string);
  'transfer_no'?: (string);
  'biz_transfer_no'?: (string);
  'amount'?: (number | string | Long);
  'fee'?: (number | string | Long);
}

export interface FreezeRequest__Output {
  'mch_no': (string);
  'transfer_no': (string);
  'biz_transfer_no': (string);
  'amount': (string);
  'fee': (string);
}
