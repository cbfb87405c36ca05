// Original file: proto/ledger/v1/ledger.proto


export interface RunSettlementRequest {
  /**
   * Settle what is due by this instant; empty means now.
   */
  'until'?: (string);
}

export interface RunSettlementRequest__Output {
  /**
   * Settle what is due by this instant; empty means now.
   */
  'until': (string);
}
