// Original file: proto/transfers/v1/transfers.proto

import type { Long } from '@grpc/proto-loader';

export interface TransferBatchItem {
  'biz_transfer_no'?: (string);
  'amount'?: (number | string | Long);
  'title'?: (string);
  'reason'?: (string);
  'payee_type'?: (string);
  'payee_account'?: (string);
  'payee_name'?: (string);
  'payee_code'?: (string);
  'attach'?: (string);
}

export interface TransferBatchItem__Output {
  'biz_transfer_no': (string);
  'amount': (string);
  'title': (string);
  'reason': (string);
  'payee_type': (string);
  'payee_account': (string);
  'payee_name': (string);
  'payee_code': (string);
  'attach': (string);
}
