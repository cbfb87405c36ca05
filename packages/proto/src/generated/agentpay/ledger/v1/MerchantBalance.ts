// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface MerchantBalance {
  'mch_no'?: (string);
  'available'?: (number | string | Long);
  'pending'?: (number | string | Long);
  'frozen'?: (number | string | Long);
}

export interface MerchantBalance__Output {
  'mch_no': (string);
  'available': (string);
  'pending': (string);
  'frozen': (string);
}
