// Original file: proto/payments/v1/payments.proto


export interface ListPayOrdersRequest {
  /**
   * Empty: every merchant's orders (operators).
   */
  'mch_no'?: (string);
  /**
   * Matched exactly against the order number, the merchant's number, the claveRastreo and the CLABE.
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

export interface ListPayOrdersRequest__Output {
  /**
   * Empty: every merchant's orders (operators).
   */
  'mch_no': (string);
  /**
   * Matched exactly against the order number, the merchant's number, the claveRastreo and the CLABE.
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
