// Original file: proto/ledger/v1/ledger.proto


export interface RunSettlementResponse {
  'settled'?: (number);
}

export interface RunSettlementResponse__Output {
  'settled': (number);
}
