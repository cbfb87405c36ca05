// Original file: proto/payments/v1/payments.proto


export interface PayOrderHistoryRequest {
  'order_no'?: (string);
  /**
   * Empty: whatever its merchant (operators); otherwise an order of another merchant is ORDER_NOT_FOUND.
   */
  'mch_no'?: (string);
}

export interface PayOrderHistoryRequest__Output {
  'order_no': (string);
  /**
   * Empty: whatever its merchant (operators); otherwise an order of another merchant is ORDER_NOT_FOUND.
   */
  'mch_no': (string);
}
