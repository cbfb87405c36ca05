// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface CheckResponse {
  'ok'?: (boolean);
  'entries'?: (number | string | Long);
  'accounts'?: (number | string | Long);
  'problems'?: (string)[];
}

export interface CheckResponse__Output {
  'ok': (boolean);
  'entries': (string);
  'accounts': (string);
  'problems': (string)[];
}
