// Original file: proto/transfers/v1/transfers.proto


export interface TransferHistoryRequest {
  'transfer_no'?: (string);
  /**
   * Empty: whatever its merchant (operators); otherwise another merchant's transfer is TRANSFER_NOT_FOUND.
   */
  'mch_no'?: (string);
}

export interface TransferHistoryRequest__Output {
  'transfer_no': (string);
  /**
   * Empty: whatever its merchant (operators); otherwise another merchant's transfer is TRANSFER_NOT_FOUND.
   */
  'mch_no': (string);
}
