// Original file: proto/transfers/v1/transfers.proto


export interface ListTransfersRequest {
  /**
   * Empty: every merchant's transfers (operators).
   */
  'mch_no'?: (string);
  /**
   * Matched exactly against the transfer number, the merchant's number, the claveRastreo and the payee account.
   */
  'query'?: (string);
  /**
   * Empty: any status.
   */
  'status'?: (string);
  /**
   * Instants on creation time: from inclusive, to exclusive; empty for no bound.
   */
  'created_from'?: (string);
  'created_to'?: (string);
  /**
   * 1..200; 0 means 50.
   */
  'limit'?: (number);
  /**
   * The previous page's next_cursor; empty for the first page.
   */
  'cursor'?: (string);
}

export interface ListTransfersRequest__Output {
  /**
   * Empty: every merchant's transfers (operators).
   */
  'mch_no': (string);
  /**
   * Matched exactly against the transfer number, the merchant's number, the claveRastreo and the payee account.
   */
  'query': (string);
  /**
   * Empty: any status.
   */
  'status': (string);
  /**
   * Instants on creation time: from inclusive, to exclusive; empty for no bound.
   */
  'created_from': (string);
  'created_to': (string);
  /**
   * 1..200; 0 means 50.
   */
  'limit': (number);
  /**
   * The previous page's next_cursor; empty for the first page.
   */
  'cursor': (string);
}
