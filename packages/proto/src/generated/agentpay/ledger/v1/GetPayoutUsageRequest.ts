// Original file: proto/ledger/v1/ledger.proto


export interface GetPayoutUsageRequest {
  'mch_no'?: (string);
}

export interface GetPayoutUsageRequest__Output {
  'mch_no': (string);
}
