// Original file: proto/common/v1/common.proto

import type { Long } from '@grpc/proto-loader';

/**
 * One limit: centavos, or a count for daily_count. An absent Limit is no limit.
 */
export interface Limit {
  'value'?: (number | string | Long);
}

/**
 * One limit: centavos, or a count for daily_count. An absent Limit is no limit.
 */
export interface Limit__Output {
  'value': (string);
}
