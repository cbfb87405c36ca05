// Original file: proto/ledger/v1/ledger.proto


export interface GetBalanceRequest {
  'mch_no'?: (string);
}

export interface GetBalanceRequest__Output {
  'mch_no': (string);
}
