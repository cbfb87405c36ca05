// Original file: proto/ledger/v1/ledger.proto


export interface GetStatementRequest {
  'mch_no'?: (string);
  'start_time'?: (string);
  'end_time'?: (string);
  /**
   * 1..500; 0 means 100.
   */
  'limit'?: (number);
  /**
   * The previous page's next_cursor; empty for the first page.
   */
  'cursor'?: (string);
}

export interface GetStatementRequest__Output {
  'mch_no': (string);
  'start_time': (string);
  'end_time': (string);
  /**
   * 1..500; 0 means 100.
   */
  'limit': (number);
  /**
   * The previous page's next_cursor; empty for the first page.
   */
  'cursor': (string);
}
