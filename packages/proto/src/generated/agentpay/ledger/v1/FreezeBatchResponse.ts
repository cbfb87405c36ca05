// Original file: proto/ledger/v1/ledger.proto


export interface FreezeBatchResponse {
  /**
   * Items frozen by this call (0 for a repeat).
   */
  'created'?: (number);
}

export interface FreezeBatchResponse__Output {
  /**
   * Items frozen by this call (0 for a repeat).
   */
  'created': (number);
}
