// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface FreezeBatchItem {
  'transfer_no'?: (string);
  'biz_transfer_no'?: (string);
  'amount'?: (number | string | Long);
  'fee'?: (number | string | Long);
}

export interface FreezeBatchItem__Output {
  'transfer_no': (string);
  'biz_transfer_no': (string);
  'amount': (string);
  'fee': (string);
}
