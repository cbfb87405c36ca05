// Original file: proto/ledger/v1/ledger.proto


export interface DiscrepancyKey {
  'id'?: (string);
}

export interface DiscrepancyKey__Output {
  'id': (string);
}
