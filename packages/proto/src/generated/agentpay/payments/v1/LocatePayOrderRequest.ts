// Original file: proto/payments/v1/payments.proto


export interface LocatePayOrderRequest {
  'order_no'?: (string);
}

export interface LocatePayOrderRequest__Output {
  'order_no': (string);
}
