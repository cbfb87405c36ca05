// Original file: proto/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface MerchantSettlement {
  'mch_no'?: (string);
  /**
   * The latest settled pay-in (its real amount); empty (and 0) when the merchant never had one.
   */
  'last_settled_at'?: (string);
  'last_order_no'?: (string);
  'last_amount'?: (number | string | Long);
  /**
   * Paid in, not settled yet.
   */
  'pending'?: (number | string | Long);
  'available'?: (number | string | Long);
}

export interface MerchantSettlement__Output {
  'mch_no': (string);
  /**
   * The latest settled pay-in (its real amount); empty (and 0) when the merchant never had one.
   */
  'last_settled_at': (string);
  'last_order_no': (string);
  'last_amount': (string);
  /**
   * Paid in, not settled yet.
   */
  'pending': (string);
  'available': (string);
}
