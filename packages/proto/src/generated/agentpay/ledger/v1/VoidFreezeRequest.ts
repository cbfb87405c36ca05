// Original file: proto/ledger/v1/ledger.proto


export interface VoidFreezeRequest {
  'transfer_no'?: (string);
  /**
   * The merchant, for a tombstone written before any freeze.
   */
  'mch_no'?: (string);
}

export interface VoidFreezeRequest__Output {
  'transfer_no': (string);
  /**
   * The merchant, for a tombstone written before any freeze.
   */
  'mch_no': (string);
}
