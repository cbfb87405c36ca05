// Original file: proto/ledger/v1/ledger.proto


export interface RunReconciliationRequest {
  /**
   * yyyy-MM-dd, Mexico City.
   */
  'day'?: (string);
  /**
   * Empty: every route.
   */
  'route_id'?: (string);
}

export interface RunReconciliationRequest__Output {
  /**
   * yyyy-MM-dd, Mexico City.
   */
  'day': (string);
  /**
   * Empty: every route.
   */
  'route_id': (string);
}
