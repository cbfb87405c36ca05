// Original file: proto/transfers/v1/transfers.proto


export interface HeldTransferRef {
  'transfer_no'?: (string);
  'traceparent'?: (string);
}

export interface HeldTransferRef__Output {
  'transfer_no': (string);
  'traceparent': (string);
}
