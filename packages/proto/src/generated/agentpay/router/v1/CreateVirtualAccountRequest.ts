// Original file: proto/router/v1/router.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateVirtualAccountRequest {
  'mch_no'?: (string);
  'method'?: (string);
  'order_no'?: (string);
  'amount'?: (number | string | Long);
  'expired_time'?: (string);
}

export interface CreateVirtualAccountRequest__Output {
  'mch_no': (string);
  'method': (string);
  'order_no': (string);
  'amount': (string);
  'expired_time': (string);
}
