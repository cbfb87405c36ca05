// Original file: proto/router/v1/router.proto

import type { Long } from '@grpc/proto-loader';

export interface SubmitPayoutRequest {
  'mch_no'?: (string);
  'transfer_no'?: (string);
  'amount'?: (number | string | Long);
  'payee_type'?: (string);
  'payee_account'?: (string);
  'payee_name'?: (string);
  /**
   * Public payee code; the route maps it to its own upstream code.
   */
  'payee_code'?: (string);
  'reason'?: (string);
}

export interface SubmitPayoutRequest__Output {
  'mch_no': (string);
  'transfer_no': (string);
  'amount': (string);
  'payee_type': (string);
  'payee_account': (string);
  'payee_name': (string);
  /**
   * Public payee code; the route maps it to its own upstream code.
   */
  'payee_code': (string);
  'reason': (string);
}
