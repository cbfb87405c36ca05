// Original file: proto/ledger/v1/ledger.proto


export interface OrderEntriesRequest {
  /**
   * One of the two.
   */
  'order_no'?: (string);
  'transfer_no'?: (string);
}

export interface OrderEntriesRequest__Output {
  /**
   * One of the two.
   */
  'order_no': (string);
  'transfer_no': (string);
}
