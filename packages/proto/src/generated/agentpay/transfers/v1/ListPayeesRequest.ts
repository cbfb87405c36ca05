// Original file: proto/transfers/v1/transfers.proto


export interface ListPayeesRequest {
  'mch_no'?: (string);
  /**
   * 1..200; 0 means 50.
   */
  'limit'?: (number);
  'cursor'?: (string);
  'with_removed'?: (boolean);
}

export interface ListPayeesRequest__Output {
  'mch_no': (string);
  /**
   * 1..200; 0 means 50.
   */
  'limit': (number);
  'cursor': (string);
  'with_removed': (boolean);
}
