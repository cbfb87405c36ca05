// Original file: proto/ledger/v1/ledger.proto


export interface ListSettlementsRequest {
  /**
   * 1..500; 0 means 50.
   */
  'limit'?: (number);
  /**
   * The previous page's next_after; empty for the first page.
   */
  'after'?: (string);
}

export interface ListSettlementsRequest__Output {
  /**
   * 1..500; 0 means 50.
   */
  'limit': (number);
  /**
   * The previous page's next_after; empty for the first page.
   */
  'after': (string);
}
