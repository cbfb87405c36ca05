// Original file: proto/ledger/v1/ledger.proto


export interface ListSettlementRunsRequest {
  /**
   * 1..500; 0 means 50.
   */
  'limit'?: (number);
  /**
   * The previous page's next_after (runs older than it); empty for the first page.
   */
  'after'?: (string);
}

export interface ListSettlementRunsRequest__Output {
  /**
   * 1..500; 0 means 50.
   */
  'limit': (number);
  /**
   * The previous page's next_after (runs older than it); empty for the first page.
   */
  'after': (string);
}
