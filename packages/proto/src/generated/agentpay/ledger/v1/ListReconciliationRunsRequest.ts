// Original file: proto/ledger/v1/ledger.proto


export interface ListReconciliationRunsRequest {
  /**
   * yyyy-MM-dd or empty.
   */
  'day'?: (string);
  /**
   * Empty: every route.
   */
  'route_id'?: (string);
  /**
   * 1..500; 0 asks for the default (50).
   */
  'limit'?: (number);
  /**
   * Keyset cursor: the last id of the previous page (runs older than it).
   */
  'before_id'?: (string);
}

export interface ListReconciliationRunsRequest__Output {
  /**
   * yyyy-MM-dd or empty.
   */
  'day': (string);
  /**
   * Empty: every route.
   */
  'route_id': (string);
  /**
   * 1..500; 0 asks for the default (50).
   */
  'limit': (number);
  /**
   * Keyset cursor: the last id of the previous page (runs older than it).
   */
  'before_id': (string);
}
