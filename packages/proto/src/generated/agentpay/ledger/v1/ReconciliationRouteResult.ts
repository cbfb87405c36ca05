// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ReconciliationRouteResult {
  'route_id'?: (string);
  'lines'?: (number | string | Long);
  'matched'?: (number | string | Long);
  'pending'?: (number | string | Long);
  'discrepancies'?: (number | string | Long);
}

export interface ReconciliationRouteResult__Output {
  'route_id': (string);
  'lines': (string);
  'matched': (string);
  'pending': (string);
  'discrepancies': (string);
}
